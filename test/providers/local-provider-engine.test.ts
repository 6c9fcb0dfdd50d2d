import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildImplementorContext } from '../../src/engine/context-assembly/build-implementor-context.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import type { PlannerStartParams } from '../../src/engine/runtime-contract/index.ts';
import { createRecordingLogger, silentLogger } from '../../src/logging/logger.ts';
import { createLocalProvider, type LocalProvider } from '../../src/providers/local/create-local-provider.ts';
import {
  buildAddFilePatch,
  buildImplementorResult,
  buildReviewerResult,
} from '../../src/runtimes/scripted/build-scripted-results.ts';
import { buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
import { createScriptedAdapter } from '../../src/runtimes/scripted/create-scripted-adapter.ts';
import { createTempDir } from '../support/shared/create-temp-dir.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';

/** The sample project's test: fails unless the implementor's module exports 42. */
const CHECK_SCRIPT = [
  "import { answer } from './src/answer.mjs';",
  "if (answer !== 42) { console.error('expected 42, got ' + answer); process.exit(1); }",
  "console.log('1 test passed');",
  '',
].join('\n');

interface World {
  repo: TempGitRepo;
  dir: ReturnType<typeof createTempDir>;
  provider: LocalProvider;
  engine: Engine;
  /** The prompt each implementor run was given. */
  prompts: string[];
  /** What context assembly builds for the same run from the store and the provider at that moment. */
  assembled: string[];
  /** The params each planner run was given. */
  plannerParams: PlannerStartParams[];
}

let world: World | null = null;
afterEach(async () => {
  if (world === null) return;
  await world.engine.stop();
  await world.provider.runPendingChecks();
  await world.provider.close();
  await world.repo.cleanup();
  world.dir.remove();
  world = null;
});

/** The implementor's answers, one per run; the prompt each run would be given is recorded. */
async function setUp(answers: number | number[], options: { maxCheckRounds?: number } = {}): Promise<World> {
  const repo = await createTempGitRepo();
  await repo.commit('sample project', { 'README.md': '# Sample\n', 'check.mjs': CHECK_SCRIPT });
  const dir = createTempDir('flotilla-local-engine-');
  const provider = createLocalProvider({
    repoRoot: repo.root,
    defaultBranch: 'main',
    specsDir: 'docs/specs',
    dbPath: join(dir.path, '.flotilla', 'flotilla.db'),
    checksCommand: 'node check.mjs',
    checksTimeoutMs: 30_000,
    logsDir: join(dir.path, 'logs'),
    logger: silentLogger,
  });
  const queue = Array.isArray(answers) ? [...answers] : [answers];
  const prompts: string[] = [];
  const assembled: string[] = [];
  const plannerParams: PlannerStartParams[] = [];
  const adapter = createScriptedAdapter({
    planner: async (params) => {
      if (params.role === 'planner') plannerParams.push(params);
      return buildResultRun({ role: 'planner', create: [], close: [], update: [] });
    },
    implementor: async (params) => {
      if (params.role === 'implementor') {
        prompts.push(params.prompt);
        assembled.push(
          await buildImplementorContext(params, {
            getState: () => engine.getState(),
            workItemReader: provider.workItemReader,
            revisionReader: provider.revisionReader,
            getReviewHistory: (id) => provider.revisionReader.getReviewHistory(id),
          }),
        );
      }
      const answer = queue.shift();
      if (answer === undefined) throw new Error('no implementor run left in this test');
      return buildResultRun(
        buildImplementorResult('completed', {
          summary: `Set the answer to ${answer}`,
          patch: buildAddFilePatch('src/answer.mjs', `export const answer = ${answer};\n`),
        }),
      );
    },
    reviewer: [buildResultRun(buildReviewerResult('approve', { summary: 'Correct and tested' }))],
  });
  const engine: Engine = createEngine({
    provider,
    createRuntimeAdapters: () => ({ planner: adapter, implementor: adapter, reviewer: adapter }),
    logger: createRecordingLogger(),
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 5,
    scheduler: { retryBaseDelay: 0.01, retryMaxDelay: 0.05 },
    ...(options.maxCheckRounds === undefined ? {} : { maxCheckRounds: options.maxCheckRounds }),
  });
  world = { repo, dir, provider, engine, prompts, assembled, plannerParams };
  return world;
}

/** Polls and drains the loop a few times, letting background checks finish in between. */
async function settle({ engine, provider }: World): Promise<void> {
  for (let round = 0; round < 8; round += 1) {
    await engine.pollNow();
    await engine.whenQuiescent();
    await provider.runPendingChecks();
  }
}

describe('engine on the local provider', () => {
  it('takes one item from pending to approved with real git, SQLite and checks', async () => {
    const w = await setUp(42);
    const { provider, repo, engine } = w;
    const mainBefore = (await repo.git(['rev-parse', 'main'])).trim();
    const item = await provider.workItemWriter.createWorkItem({
      title: 'Compute the answer',
      body: 'Objective: export `answer` from src/answer.mjs',
      labels: ['priority:high'],
      blockedBy: [],
    });

    await engine.start();
    await settle(w);

    const finished = await provider.workItemReader.getWorkItem(item.id);
    expect(finished?.status).toBe('approved');
    const revisionID = finished?.linkedRevision ?? '';
    const revision = await provider.revisionReader.getRevision(revisionID);
    expect(revision).toMatchObject({
      headRef: `flotilla/${item.id}`,
      workItemID: item.id,
      pipeline: { status: 'success', url: expect.stringMatching(/checks-.*\.log$/), reason: null },
    });
    expect(revision?.body).toContain(`Closes #${item.id}`);
    expect((await provider.revisionReader.getReviewHistory(revisionID)).reviews).toEqual([
      expect.objectContaining({ author: 'flotilla', state: 'APPROVED', body: 'Correct and tested' }),
    ]);
    const comments = provider.tracker.workItems.getWorkItemComments(item.id).map((comment) => comment.body);
    expect(comments.join('\n')).toContain('Set the answer to 42');

    // The branch holds the implementation; the user's checkout, main and worktree list are untouched.
    expect(await repo.git(['show', `flotilla/${item.id}:src/answer.mjs`])).toBe(
      'export const answer = 42;\n',
    );
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(mainBefore);
    expect(await repo.git(['status', '--porcelain'])).toBe('');
    expect((await repo.git(['worktree', 'list', '--porcelain'])).match(/^worktree /gm)).toHaveLength(1);
  });

  it('reviews as soon as the checks pass, without waiting for a poll (polls are an hour apart)', async () => {
    const w = await setUp(42);
    const { provider, engine } = w;
    const item = await provider.workItemWriter.createWorkItem({
      title: 'Compute the answer',
      body: 'Objective: export `answer`',
      labels: [],
      blockedBy: [],
    });

    await engine.start();
    // The implementor runs and its revision is pushed; then only the checks finishing can wake the engine.
    await engine.whenQuiescent();
    await provider.runPendingChecks();
    await engine.whenQuiescent();

    const revisionID = engine.getState().workItems[item.id]?.linkedRevision ?? '';
    expect(engine.getState().revisions[revisionID]?.pipeline?.status).toBe('success');
    expect(Object.values(engine.getState().agentRuns).map((run) => run.role)).toEqual([
      'implementor',
      'reviewer',
    ]);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('approved');
  });

  it('sends a red revision back to the implementor with the checks output; the rework passes and is approved', async () => {
    const w = await setUp([41, 42]);
    const { provider, engine } = w;
    const item = await provider.workItemWriter.createWorkItem({
      title: 'Compute the answer',
      body: 'Objective: export `answer`',
      labels: [],
      blockedBy: [],
    });

    await engine.start();
    await settle(w);

    const finished = await provider.workItemReader.getWorkItem(item.id);
    expect(finished?.status).toBe('approved');
    const revision = await provider.revisionReader.getRevision(finished?.linkedRevision ?? '');
    expect(revision?.pipeline?.status).toBe('success');
    // The rework's prompt carried the red checks' real output, not just the command.
    expect(w.prompts).toHaveLength(2);
    // The runtime got exactly what context assembly builds, the item already in progress.
    // The runtime got the role's prompt as built, after the item's task context (none before the first run).
    // …then the repository's memories (issue #28), last.
    expect(w.prompts[0]?.startsWith(w.assembled[0]?.trimEnd() ?? '-')).toBe(true);
    expect(w.prompts[0]?.slice(w.assembled[0]?.trimEnd().length)).toMatch(/^\n\n## Memories\n/);
    expect(w.prompts[1]?.startsWith('## Task context\n')).toBe(true);
    expect(w.prompts[1]).toContain(`\n\n${w.assembled[1]}`);
    // A rework: it continues its previous revision, rebased, and is told so last before the memories (#30).
    expect(w.prompts[1]).toContain(
      'rebased onto the current default branch, unless a workspace note says the rebase failed: continue from it.\n\n## Memories\n',
    );
    expect(w.prompts[1]).toContain('implementation_summary');
    expect(w.prompts[0]).toContain('### Status\nin-progress\n');
    expect(w.prompts[0]).not.toContain('CI Status');
    expect(w.prompts[1]).toContain('### CI Status: FAILURE');
    expect(w.prompts[1]).toMatch(/Checks output:\n\n```\n[^`]*expected 42, got 41/);
    // One reviewer, for the green head only; the comment says why the item went back.
    const roles = Object.values(engine.getState().agentRuns).map((run) => run.role);
    expect(roles).toEqual(['implementor', 'implementor', 'reviewer']);
    const comments = provider.tracker.workItems.getWorkItemComments(item.id).map((comment) => comment.body);
    expect(comments.join('\n')).toContain('rework round 1 of 2');
    expect(engine.getState().checkRounds).toEqual({});
  });

  it('parks the item as needs-refinement once the checks stay red past maxCheckRounds', async () => {
    const w = await setUp([41, 40], { maxCheckRounds: 1 });
    const { provider, engine } = w;
    const item = await provider.workItemWriter.createWorkItem({
      title: 'Compute the answer',
      body: 'Objective: export `answer`',
      labels: [],
      blockedBy: [],
    });

    await engine.start();
    await settle(w);

    const parked = await provider.workItemReader.getWorkItem(item.id);
    expect(parked?.status).toBe('needs-refinement');
    const revision = await provider.revisionReader.getRevision(parked?.linkedRevision ?? '');
    expect(revision?.pipeline?.status).toBe('failure');
    expect((await provider.revisionReader.getReviewHistory(revision?.id ?? '')).reviews).toEqual([]);
    expect(Object.values(engine.getState().agentRuns).map((run) => run.role)).toEqual([
      'implementor',
      'implementor',
    ]);
    const last = provider.tracker.workItems.getWorkItemComments(item.id).at(-1)?.body ?? '';
    expect(last).toContain('now needs a human');
    expect(last).toContain('`node check.mjs` exited with code 1');
    expect(last).toContain('expected 42, got 40');
  });

  it('plans the committed version of a spec, not an uncommitted edit, and records that version as planned', async () => {
    const w = await setUp([]);
    const { repo, engine } = w;
    const committed = '---\nstatus: approved\n---\n# Login\n\nUsers log in with email.\n';
    await repo.commit('approve the login spec', { 'docs/specs/login.md': committed });
    const blobSHA = (await repo.git(['rev-parse', 'main:docs/specs/login.md'])).trim();
    // The user keeps editing the approved spec in their checkout and has not committed yet.
    await repo.write({
      'docs/specs/login.md': '---\nstatus: approved\n---\n# Login\n\nUsers log in with a passkey.\n',
    });

    await engine.start();
    await settle(w);

    expect(w.plannerParams).toHaveLength(1);
    const [params] = w.plannerParams;
    expect(params?.specSHAs).toEqual({ 'docs/specs/login.md': blobSHA });
    expect(params?.prompt).toContain(
      '### docs/specs/login.md (added)\n---\nstatus: approved\n---\n# Login\n\nUsers log in with email.\n',
    );
    expect(params?.prompt).not.toContain('passkey');
    expect(engine.getState().lastPlannedSHAs).toEqual({ 'docs/specs/login.md': blobSHA });
  });
});
