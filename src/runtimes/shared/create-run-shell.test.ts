import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { type AgentQuestions, isAgentQuestions } from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentStartParams,
  type ImplementorStartParams,
} from '../../engine/runtime-contract/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import type { AgentTurn, RoundEnd, RuntimeTurnSource, TurnRun } from './agent-turn.ts';
import { createRunShell, type RunShellConfig } from './create-run-shell.ts';
import type { ValidationSettings } from './run-validation-round.ts';

/** One round of the test's turn: what it does in the worktree, then how it ends. */
interface ScriptedRound {
  write?: Record<string, string>;
  /** Waits for the run's abort (a cancel or the timeout) before it ends. */
  hang?: boolean;
  end: 'completed' | 'blocked' | { questions: string[] } | { again: string } | { fail: string };
}

let repo: TempGitRepo;
let stateDir: string;

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# Shell\n', '.gitignore': '.flotilla/\n' });
  stateDir = await mkdtemp(join(tmpdir(), 'run-shell-state-'));
});

afterAll(async () => {
  await repo.cleanup();
  await rm(stateDir, { recursive: true, force: true });
});

/** A runtime made of the shell and a turn that plays `rounds` in order; what it saw is in `seen`. */
function scriptedRuntime(
  rounds: ScriptedRound[],
  options: {
    validation?: ValidationSettings;
    failProvisioning?: boolean;
    maxAgentDuration?: number;
    /** Keep the transcript's FLOTILLA notes in `seen.notes`. */
    notes?: boolean;
  } = {},
) {
  const seen = {
    prompts: [] as string[],
    releases: [] as boolean[],
    phases: [] as string[],
    notes: [] as string[],
  };
  const source: RuntimeTurnSource = {
    continues: 'session',
    keepsRunDir: true,
    returnsWhenStarted: true,
    worktreeFor: (params) =>
      params.role === 'implementor' ? { branchName: `agent/${params.branchName}` } : null,
    checkResume: () => {},
    async prepare(setup) {
      setup.onRelease((kept) => {
        seen.releases.push(kept);
      });
      await setup.makeRunDir();
      await writeFile(join(setup.runDir, 'state.txt'), 'the runtime state\n');
      if (options.failProvisioning) throw new Error('the test turn cannot start');
      let next = 0;
      const turn: AgentTurn<ScriptedRound> = {
        firstPrompt: () => setup.params.prompt,
        async play(run: TurnRun, prompt) {
          seen.prompts.push(prompt);
          run.markStarted();
          const round = rounds[next++];
          if (round === undefined) throw new Error('the script has no more rounds');
          for (const [path, content] of Object.entries(round.write ?? {}))
            await writeFile(join(run.cwd, path), content);
          if (round.hang && !run.signal.aborted)
            await new Promise((resolve) => run.signal.addEventListener('abort', resolve));
          return round;
        },
        async settle(run, round, index): Promise<RoundEnd> {
          const { end } = round;
          if (end === 'completed' || end === 'blocked') {
            const patch = end === 'completed' ? await run.patch(index) : null;
            return {
              kind: 'result',
              result: { role: 'implementor', outcome: end, summary: 'done', patch },
            };
          }
          if ('questions' in end) return { kind: 'questions', questions: end.questions };
          if ('again' in end) return { kind: 'again', prompt: end.again };
          throw new AgentRunFailure('error', end.fail);
        },
        usage: () => ({ costUSD: 0.01, inputTokens: 10, outputTokens: 5, turns: next }),
        keep: async (run) => ({ agentSessionID: 'own-session', stateDir: run.runDir }),
      };
      return turn;
    },
    checkAvailability: () => ({ available: true }),
  };
  const config: RunShellConfig = {
    runtime: 'shell-test',
    repoRoot: repo.root,
    defaultBranch: 'main',
    setupCommand: 'none',
    logger: silentLogger,
    stateDir,
    maxAgentDuration: options.maxAgentDuration ?? 60,
    onPhase: ({ phase }) => seen.phases.push(phase),
    createSessionLog: options.notes
      ? () => ({
          filePath: null,
          record: () => {},
          note: (text: string) => seen.notes.push(text),
          finish: async () => {},
          flush: async () => {},
        })
      : null,
    ...(options.validation !== undefined && { validation: options.validation }),
  };
  return { runtime: createRunShell(config, source), seen };
}

function implementor(prompt = 'Implement it.'): ImplementorStartParams {
  return {
    role: 'implementor',
    sessionID: randomUUID(),
    prompt,
    workItemID: '7',
    branchName: `flotilla/${randomUUID()}`,
  };
}

const worktreeOf = (params: AgentStartParams) =>
  join(repo.root, '.worktrees', `agent/${params.role === 'implementor' ? params.branchName : ''}`);

describe('the run shell', () => {
  it("starts an implementor's worktree where the engine says, and gives its patch's base", async () => {
    const main = (await repo.git(['rev-parse', 'main'])).trim();
    // The blocker's approved revision: a commit main does not have.
    const onto = await repo.commit('blocker work', { 'blocker.txt': 'theirs\n' });
    await repo.git(['reset', '--quiet', '--hard', main]);
    const { runtime } = scriptedRuntime([{ write: { 'mine.txt': 'mine\n' }, end: 'completed' }]);
    const params = { ...implementor(), start: { onto: [onto] } };
    const result = await (await runtime.startAgent(params)).result;
    if (isAgentQuestions(result) || result.role !== 'implementor') throw new Error('expected a result');
    expect(result.base).toBe(onto);
    expect(result.patch).toContain('b/mine.txt');
    expect(result.patch).not.toContain('blocker.txt');
  });

  it('says in the transcript and the prompt that a rework could not be rebased, and starts fresh', async () => {
    const main = (await repo.git(['rev-parse', 'main'])).trim();
    await repo.git(['checkout', '--quiet', '-b', `old-${randomUUID()}`]);
    const previous = await repo.commit('previous revision', { 'README.md': '# Mine\n' });
    await repo.git(['checkout', '--quiet', 'main']);
    const moved = await repo.commit('main moves', { 'README.md': '# Theirs\n' });
    const { runtime, seen } = scriptedRuntime([{ write: { 'fix.txt': 'fix\n' }, end: 'completed' }], {
      notes: true,
    });
    const params = { ...implementor(), start: { rebase: previous } };
    const result = await (await runtime.startAgent(params)).result;
    if (isAgentQuestions(result) || result.role !== 'implementor') throw new Error('expected a result');
    const note = seen.notes.find((text) => text.includes('could not be rebased'));
    expect(note).toMatch(/CONFLICT .*README\.md.*the rework starts fresh/);
    expect(seen.prompts[0]).toContain(`## Workspace Notes\n- ${note}`);
    expect(result.base).toBe(moved);
    expect(result.patch).toContain('b/fix.txt');
    expect(result.patch).not.toContain('README.md');
    expect(moved).not.toBe(main);
  });

  it("takes the implementor's patch from its worktree, then removes the worktree and the run directory", async () => {
    const { runtime, seen } = scriptedRuntime([{ write: { 'a.txt': 'a\n' }, end: 'completed' }]);
    const params = implementor();
    const handle = await runtime.startAgent(params);
    const result = await handle.result;

    expect(result).toMatchObject({ role: 'implementor', outcome: 'completed' });
    expect(!isAgentQuestions(result) && result.role === 'implementor' && result.patch).toContain('+a');
    expect(handle.usage?.()).toMatchObject({ inputTokens: 10, turns: 1 });
    expect(existsSync(worktreeOf(params))).toBe(false);
    expect(existsSync(join(stateDir, 'runs', params.sessionID))).toBe(false);
    expect(seen.releases).toEqual([false]);
    expect(seen.phases).toEqual([
      'worktree-create',
      'state-dir',
      'session-setup',
      'result-and-patch',
      'cleanup',
    ]);
  });

  it('a provisioning failure rejects startAgent and removes what was provisioned', async () => {
    const { runtime, seen } = scriptedRuntime([], { failProvisioning: true });
    const params = implementor();

    await expect(runtime.startAgent(params)).rejects.toThrow('the test turn cannot start');
    expect(existsSync(worktreeOf(params))).toBe(false);
    expect(existsSync(join(stateDir, 'runs', params.sessionID))).toBe(false);
    expect(seen.releases).toEqual([false]);
  });

  it('questions keep the worktree and the run directory until discardSession', async () => {
    const { runtime, seen } = scriptedRuntime([
      { write: { 'half.txt': 'half\n' }, end: { questions: ['Which colour?'] } },
    ]);
    const params = implementor();
    const outcome = (await (await runtime.startAgent(params)).result) as AgentQuestions;

    expect(outcome).toMatchObject({
      kind: 'questions',
      askedBy: 'implementor',
      questions: ['Which colour?'],
    });
    expect(outcome.session).toMatchObject({ runtime: 'shell-test', agentSessionID: 'own-session' });
    expect(existsSync(join(worktreeOf(params), 'half.txt'))).toBe(true);
    expect(existsSync(join(stateDir, 'runs', params.sessionID, 'state.txt'))).toBe(true);
    expect(seen.releases).toEqual([true]);

    await runtime.discardSession(outcome.session);
    expect(existsSync(worktreeOf(params))).toBe(false);
    expect(existsSync(join(stateDir, 'runs', params.sessionID))).toBe(false);
  });

  it('a resume continues in the kept worktree and run directory, and cleans up as usual', async () => {
    const asking = scriptedRuntime([{ write: { 'half.txt': 'half\n' }, end: { questions: ['Why?'] } }]);
    const first = implementor();
    const asked = (await (await asking.runtime.startAgent(first)).result) as AgentQuestions;
    const { runtime, seen } = scriptedRuntime([{ write: { 'rest.txt': 'rest\n' }, end: 'completed' }]);

    const result = await (
      await runtime.startAgent({
        ...implementor('the answers'),
        resume: { session: asked.session, questions: ['Why?'], answers: 'Because.', sessionNumber: 2 },
      })
    ).result;

    const patch = !isAgentQuestions(result) && result.role === 'implementor' ? result.patch : null;
    expect(patch).toContain('+half');
    expect(patch).toContain('+rest');
    expect(seen.phases).not.toContain('worktree-create');
    expect(existsSync(worktreeOf(first))).toBe(false);
    expect(existsSync(join(stateDir, 'runs', first.sessionID))).toBe(false);
  });

  it('a failing validation command resumes the session with its errors, up to maxRounds', async () => {
    const validation = { commands: ['test -f fixed.txt'], maxRounds: 1, timeoutMs: 10_000 };
    const fixed = scriptedRuntime(
      [
        { write: { 'a.txt': 'a\n' }, end: 'completed' },
        { write: { 'fixed.txt': 'ok\n' }, end: 'completed' },
      ],
      { validation },
    );
    const result = await (await fixed.runtime.startAgent(implementor())).result;
    expect(result).toMatchObject({ outcome: 'completed' });
    expect(fixed.seen.prompts).toHaveLength(2);
    expect(fixed.seen.prompts[1]).toContain('test -f fixed.txt');

    const never = scriptedRuntime(
      [
        { write: { 'a.txt': 'a\n' }, end: 'completed' },
        { write: { 'b.txt': 'b\n' }, end: 'completed' },
      ],
      { validation },
    );
    const failed = (await never.runtime.startAgent(implementor())).result;
    await expect(failed).rejects.toMatchObject({ reason: 'validation' });
  });

  it('`again` plays another round with its prompt; a failure of the turn rejects the result', async () => {
    const { runtime, seen } = scriptedRuntime([
      { end: { again: 'Write the signal this time.' } },
      { end: { fail: 'the agent gave up' } },
    ]);
    const failure = await (await runtime.startAgent(implementor('first'))).result.catch((error) => error);

    expect(seen.prompts).toEqual(['first', 'Write the signal this time.']);
    expect(failure).toBeInstanceOf(AgentRunFailure);
    expect(failure).toMatchObject({ reason: 'error', message: 'the agent gave up' });
  });

  it('cancelAgent ends a running round as cancelled and cleans up', async () => {
    const { runtime } = scriptedRuntime([{ write: { 'a.txt': 'a\n' }, hang: true, end: 'completed' }]);
    const params = implementor();
    const handle = await runtime.startAgent(params);
    runtime.cancelAgent(params.sessionID);

    await expect(handle.result).rejects.toMatchObject({ reason: 'cancelled' });
    expect(existsSync(worktreeOf(params))).toBe(false);
  });

  it('maxAgentDuration ends a run that takes too long as timeout', async () => {
    const { runtime } = scriptedRuntime([{ hang: true, end: 'completed' }], { maxAgentDuration: 0.05 });
    const handle = await runtime.startAgent(implementor());

    await expect(handle.result).rejects.toMatchObject({ reason: 'timeout' });
  });
});
