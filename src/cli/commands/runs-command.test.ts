import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { resolveFlotillaPaths } from '../../config/index.ts';
import type { EngineEvent } from '../../domain/index.ts';
import { applyStateUpdate } from '../../engine/state-store/apply-state-update.ts';
import { buildInitialEngineState } from '../../engine/state-store/engine-state.ts';
import { createEngineStatePersistence, openDatabase } from '../../storage/index.ts';
import { runFlotilla } from '../support/run-flotilla.ts';

let repo: TempGitRepo;
let sessionsDir: string;
const flotilla = (args: string[]) => runFlotilla(repo.root, args);

const IMPLEMENTOR = 'aaaa1111-0000-4000-8000-000000000001';
const REVIEWER = 'aaaa2222-0000-4000-8000-000000000002';
const PLANNER = 'bbbb3333-0000-4000-8000-000000000003';
const usage = { costUSD: 0.125, inputTokens: 1200, outputTokens: 300, turns: 4 };

/** Records runs the way the engine does: each event applied to the state, then handed to the persistence. */
function recordRuns(events: EngineEvent[]): void {
  const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
  try {
    const persistence = createEngineStatePersistence(db);
    let state = buildInitialEngineState();
    for (const event of events) {
      state = applyStateUpdate(state, event).state;
      persistence.record(event, state);
    }
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  sessionsDir = resolveFlotillaPaths(repo.root).sessionsDir;
  await mkdir(sessionsDir, { recursive: true });
  const log = (id: string) => join(sessionsDir, `${id.slice(0, 8)}.log`);
  await writeFile(log(IMPLEMENTOR), '=== implementor session ===\nwrote src/a.ts\n');
  recordRuns([
    {
      type: 'plannerRequested',
      sessionID: PLANNER,
      specPaths: ['docs/specs/a.md'],
      specSHAs: { 'docs/specs/a.md': 'sha' },
      at: 1_000,
    },
    {
      type: 'plannerFailed',
      sessionID: PLANNER,
      specPaths: ['docs/specs/a.md'],
      logFilePath: null,
      usage: null,
      at: 1_500,
      reason: 'error',
      error: 'agent definition missing',
    },
    {
      type: 'implementorRequested',
      sessionID: IMPLEMENTOR,
      workItemID: '7',
      branchName: 'flotilla/7',
      at: 2_000,
    },
    {
      type: 'implementorStarted',
      sessionID: IMPLEMENTOR,
      logFilePath: log(IMPLEMENTOR),
      at: 2_100,
      runtime: 'claude',
    },
    {
      type: 'implementorCompleted',
      sessionID: IMPLEMENTOR,
      workItemID: '7',
      branchName: 'flotilla/7',
      logFilePath: null,
      usage,
      at: 65_000,
      result: { role: 'implementor', outcome: 'completed', summary: 'done', patch: '' },
    },
    { type: 'reviewerRequested', sessionID: REVIEWER, workItemID: '7', revisionID: '9', at: 70_000 },
    { type: 'reviewerStarted', sessionID: REVIEWER, logFilePath: log(REVIEWER), at: 70_100 },
  ]);
});
afterEach(() => repo.cleanup());

describe('flotilla runs', { timeout: 60_000 }, () => {
  it('marks the made-up cost of a scripted run', async () => {
    const SCRIPTED = 'cccc4444-0000-4000-8000-000000000004';
    recordRuns([
      { type: 'reviewerRequested', sessionID: SCRIPTED, workItemID: '8', revisionID: '10', at: 80_000 },
      { type: 'reviewerStarted', sessionID: SCRIPTED, logFilePath: null, at: 80_100, runtime: 'scripted' },
      {
        type: 'reviewerFailed',
        sessionID: SCRIPTED,
        workItemID: '8',
        revisionID: '10',
        logFilePath: null,
        usage: { ...usage, costUSD: 0.0024 },
        reason: 'error',
        error:
          'the reviewer session ended with an error: API Error: 400 [flotilla model-server] no route matches this request (reviewer, turn 2)\nmore',
        at: 81_000,
      },
    ]);
    const table = await flotilla(['runs']);
    expect(table.stdout).toMatch(/cccc4444\s+reviewer\s+.*\$0\.0024 \(scripted\)/);
    // The error's cause, not the runtime's wrapping of it.
    expect(table.stdout).toContain('failed: scenario: no route matches this request (reviewer, turn 2)');
    expect(table.stdout).toMatch(/aaaa1111\s+implementor\s+.*\$0\.1250\s+1200/);
    const json = JSON.parse((await flotilla(['runs', '--item', '8', '--json'])).stdout);
    expect(json[0]).toMatchObject({ sessionID: SCRIPTED, costUSD: 0.0024, runtime: 'scripted' });
  });

  it('prints the history newest first as JSON, filtered by item and limited', async () => {
    const all = await flotilla(['runs', '--json']);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    const runs = JSON.parse(all.stdout);
    expect(runs.map((run: { sessionID: string }) => run.sessionID)).toEqual([REVIEWER, IMPLEMENTOR, PLANNER]);
    expect(runs[1]).toEqual({
      sessionID: IMPLEMENTOR,
      role: 'implementor',
      mode: 'implement',
      model: null,
      modelReason: null,
      status: 'completed',
      workItemID: '7',
      specPaths: [],
      branchName: 'flotilla/7',
      revisionID: null,
      requestedAt: new Date(2_000).toISOString(),
      endedAt: new Date(65_000).toISOString(),
      durationMs: 63_000,
      failureReason: null,
      error: null,
      costUSD: 0.125,
      runtime: 'claude',
      account: null,
      inputTokens: 1200,
      outputTokens: 300,
      turns: 4,
      logFilePath: join(sessionsDir, 'aaaa1111.log'),
      sessionNumber: 1,
      askedQuestions: false,
    });
    expect(runs[0]).toMatchObject({
      role: 'reviewer',
      status: 'running',
      revisionID: '9',
      endedAt: null,
      durationMs: null,
    });
    expect(runs[2]).toMatchObject({
      role: 'planner',
      workItemID: null,
      specPaths: ['docs/specs/a.md'],
      status: 'failed',
      failureReason: 'error',
      error: 'agent definition missing',
    });

    const forItem = JSON.parse((await flotilla(['runs', '--item', '#7', '--limit', '1', '--json'])).stdout);
    expect(forItem.map((run: { sessionID: string }) => run.sessionID)).toEqual([REVIEWER]);

    const table = await flotilla(['runs']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(
      /^SESSION\s+ROLE\s+MODE\s+TARGET\s+STATUS\s+STARTED\s+DURATION\s+COST\s+TOKENS IN\/OUT\s+TRANSCRIPT\n/,
    );
    expect(table.stdout).toMatch(
      /aaaa1111\s+implementor\s+implement\s+#7\s+completed\s+\S+ \S+\s+1m3s\s+\$0\.1250\s+1200\/300\s+\.flotilla\/logs\/sessions\/aaaa1111\.log/,
    );
    expect(table.stdout).toContain('failed: agent definition missing');
  });

  it('exits 2 on a bad --limit or --item', async () => {
    for (const args of [
      ['runs', '--limit', '0'],
      ['runs', '--limit', 'ten'],
      ['runs', '--item', 'x'],
    ]) {
      expect((await flotilla(args)).code).toBe(2);
    }
  });
});

describe('flotilla logs', { timeout: 60_000 }, () => {
  it('prints a transcript by full id or unique prefix', async () => {
    const transcript = '=== implementor session ===\nwrote src/a.ts\n';
    expect(await flotilla(['logs', IMPLEMENTOR])).toEqual({ code: 0, stdout: transcript, stderr: '' });
    expect(await flotilla(['logs', 'aaaa1'])).toEqual({ code: 0, stdout: transcript, stderr: '' });
  });

  it('shortens tool output by default and prints everything with --full', async () => {
    const output = Array.from({ length: 30 }, (_, index) => `  test ${index + 1} passed`);
    const transcript = [
      '[10:00:04] ASSISTANT [tool_use] Bash',
      '  command: npm test',
      '[10:00:05] USER [tool_result] ok',
      ...output,
      '[10:00:06] RESULT success',
      '',
    ].join('\n');
    await writeFile(join(sessionsDir, 'aaaa1111.log'), transcript);
    const short = await flotilla(['logs', 'aaaa1']);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain('  command: npm test');
    expect(short.stdout).toContain(
      '  test 8 passed\n  … (+22 more lines; `flotilla logs --full` shows all)\n',
    );
    expect(short.stdout).not.toContain('test 9 passed');
    expect(await flotilla(['logs', 'aaaa1', '--full'])).toEqual({ code: 0, stdout: transcript, stderr: '' });
  });

  it('explains unknown, ambiguous, transcript-less and deleted transcripts with exit 1', async () => {
    const unknown = await flotilla(['logs', 'ffff']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no run has a session id starting with "ffff"');

    const ambiguous = await flotilla(['logs', 'aaaa']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('"aaaa" is ambiguous: 2 runs match');
    expect(ambiguous.stderr).toContain(IMPLEMENTOR);
    expect(ambiguous.stderr).toContain(REVIEWER);

    const none = await flotilla(['logs', 'bbbb']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has no transcript');

    // The reviewer's file was never written; then delete the implementor's too.
    const gone = await flotilla(['logs', 'aaaa2']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('is gone');
    await rm(join(sessionsDir, 'aaaa1111.log'));
    expect((await flotilla(['logs', IMPLEMENTOR])).stderr).toContain(
      `${join(sessionsDir, 'aaaa1111.log')} does not exist`,
    );
  });
});
