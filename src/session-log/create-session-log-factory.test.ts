import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createRecordingLogger } from '../logging/logger.ts';
import type { SessionLogFactory } from '../runtimes/claude/create-claude-adapter.ts';
import { createSessionLogFactory } from './create-session-log-factory.ts';

describe('createSessionLogFactory', () => {
  let logsDir: string;
  beforeEach(async () => {
    logsDir = await mkdtemp(join(tmpdir(), 'flotilla-log-factory-'));
  });
  afterEach(async () => {
    await rm(logsDir, { recursive: true, force: true });
  });

  const factory = (options: { maxBytes?: number } = {}) =>
    createSessionLogFactory({
      logsDir,
      enabled: true,
      logger: createRecordingLogger(),
      clock: { now: () => 1000 },
      ...options,
    });

  it("fits the Claude adapter's createSessionLog option", () => {
    expectTypeOf(factory()).toExtend<SessionLogFactory>();
  });

  it('describes each role from its start params', async () => {
    const make = factory();
    const planner = make({
      role: 'planner',
      sessionID: 'p0000000-1',
      specPaths: ['a.md', 'b.md'],
      specSHAs: {},
    });
    const implementor = make({
      role: 'implementor',
      sessionID: 'i0000000-1',
      workItemID: '5',
      branchName: 'flotilla/5',
    });
    const reviewer = make({ role: 'reviewer', sessionID: 'r0000000-1', workItemID: '5', revisionID: '9' });
    await Promise.all([planner, implementor, reviewer].map((log) => log.finish('completed')));
    expect(planner.filePath).toBe(join(logsDir, '1000-planner-p0000000.log'));
    expect(implementor.filePath).toBe(join(logsDir, '1000-implementor-5-i0000000.log'));
    expect(reviewer.filePath).toBe(join(logsDir, '1000-reviewer-5-r0000000.log'));
    expect(await readFile(planner.filePath ?? '', 'utf8')).toContain(
      'Session ID: p0000000-1\nSpec Paths: a.md, b.md\n',
    );
    expect(await readFile(implementor.filePath ?? '', 'utf8')).toContain(
      'Type: implementor\nSession ID: i0000000-1\nIssue: #5\n',
    );
    expect(await readFile(reviewer.filePath ?? '', 'utf8')).toContain('Issue: #5\nRevision: #9\n');
    expect(await readFile(reviewer.filePath ?? '', 'utf8')).toMatch(/\nStarted: .*\nSession: 1\n/);
  });

  it('numbers a resumed run as its session and caps each transcript at maxBytes', async () => {
    const make = factory({ maxBytes: 400 });
    const resumed = make({
      role: 'implementor',
      sessionID: 'i0000000-2',
      workItemID: '5',
      branchName: 'flotilla/5',
      resume: {
        session: { runtime: 'claude', worktree: null, agentSessionID: 'sdk-1', stateDir: null },
        questions: ['Which port?'],
        answers: '8080',
        sessionNumber: 3,
      },
    });
    for (let index = 0; index < 20; index++) resumed.note(`line ${index} ${'x'.repeat(40)}`);
    await resumed.finish('completed');
    const text = await readFile(resumed.filePath ?? '', 'utf8');
    expect(text).toMatch(/\nSession: 3\n/);
    expect(text).toContain('[output truncated] the transcript reached its cap of 400 bytes');
    expect(text).toMatch(/Truncated: \d+ bytes of later messages not written/);
  });

  it('returns logs without a file when logging is disabled', () => {
    const make = createSessionLogFactory({ logsDir, enabled: false, logger: createRecordingLogger() });
    expect(make({ role: 'planner', sessionID: 'x', specPaths: [], specSHAs: {} }).filePath).toBeNull();
  });
});
