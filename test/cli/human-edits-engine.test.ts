import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import { resolveFlotillaPaths } from '../../src/config/index.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import { createRecordingLogger, silentLogger } from '../../src/logging/logger.ts';
import { createLocalProvider, type LocalProvider } from '../../src/providers/local/create-local-provider.ts';
import {
  buildAddFilePatch,
  buildImplementorResult,
  buildReviewerResult,
} from '../../src/runtimes/scripted/build-scripted-results.ts';
import { buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
import {
  createScriptedAdapter,
  type ScriptedAdapter,
} from '../../src/runtimes/scripted/create-scripted-adapter.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';

interface World {
  repo: TempGitRepo;
  provider: LocalProvider;
  engine: Engine;
  adapter: ScriptedAdapter;
}

let world: World | null = null;
afterEach(async () => {
  if (world === null) return;
  await world.engine.stop();
  await world.provider.close();
  await world.repo.cleanup();
  world = null;
});

async function setUp(): Promise<World> {
  const repo = await createTempGitRepo();
  await repo.commit('sample project', {
    'README.md': '# Sample\n',
    '.gitignore': '.flotilla/\n.worktrees/\n',
    'flotilla.config.json': '{ "defaultBranch": "main" }\n',
  });
  const paths = resolveFlotillaPaths(repo.root);
  // The engine's provider and the CLI share the repository's own tracker file, as with `flotilla run`.
  const provider = createLocalProvider({
    repoRoot: repo.root,
    defaultBranch: 'main',
    specsDir: 'docs/specs',
    dbPath: paths.dbPath,
    checksCommand: null,
    checksTimeoutMs: 30_000,
    logsDir: paths.logsDir,
    logger: silentLogger,
  });
  const implementation = (answer: number) =>
    buildResultRun(
      buildImplementorResult('completed', {
        summary: `answer ${answer}`,
        patch: buildAddFilePatch('src/answer.mjs', `export const answer = ${answer};\n`),
      }),
    );
  const adapter = createScriptedAdapter({
    implementor: [implementation(1), implementation(2)],
    reviewer: [
      buildResultRun(buildReviewerResult('approve', { summary: 'Fine' })),
      buildResultRun(buildReviewerResult('approve', { summary: 'Fine now' })),
    ],
  });
  const engine = createEngine({
    provider,
    createRuntimeAdapters: () => ({ planner: adapter, implementor: adapter, reviewer: adapter }),
    logger: createRecordingLogger(),
    // Only explicit polls: the test decides when the engine looks at the tracker.
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 5,
    scheduler: { retryBaseDelay: 0.01, retryMaxDelay: 0.05 },
  });
  world = { repo, provider, engine, adapter };
  return world;
}

/** What a running engine does between polls: look at the tracker and act on it until nothing is left. */
async function settle({ engine, provider }: World): Promise<void> {
  for (let round = 0; round < 4; round += 1) {
    await engine.pollNow();
    await engine.whenQuiescent();
    await provider.runPendingChecks();
  }
}

describe('human edits from the CLI reach a running engine through its pollers', () => {
  it('a held item waits; dispatch starts it; a human request for changes sends it back for rework; merge closes it', async () => {
    const w = await setUp();
    const { engine, adapter, repo } = w;
    const cli = async (...args: string[]) => {
      const result = await runFlotillaInProcess(repo.root, args);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
      return result.stdout;
    };
    const roles = () => adapter.control.sessions().map((session) => session.role);
    await engine.start();

    await cli('work', 'create', '--title', 'Compute the answer', '--hold');
    await settle(w);
    expect(engine.getState().workItems['1']?.status).toBe('blocked');
    expect(roles()).toEqual([]);

    await cli('work', 'dispatch', '1');
    await settle(w);
    expect(engine.getState().workItems['1']?.status).toBe('approved');
    expect(roles()).toEqual(['implementor', 'reviewer']);

    await cli('review', '1', '--request-changes', '--body', 'The answer must be 2');
    await settle(w);
    expect(roles()).toEqual(['implementor', 'reviewer', 'implementor', 'reviewer']);
    expect(engine.getState().workItems['1']?.status).toBe('approved');
    expect(await repo.git(['show', 'flotilla/1:src/answer.mjs'])).toBe('export const answer = 2;\n');
    const history = await w.provider.revisionReader.getReviewHistory('2');
    expect(history.reviews.map((review) => [review.author, review.state])).toEqual([
      ['flotilla', 'DISMISSED'],
      ['Flotilla Test', 'CHANGES_REQUESTED'],
      ['flotilla', 'APPROVED'],
    ]);

    await cli('merge', '1', '--squash', '--delete-branch');
    await settle(w);
    expect(engine.getState().workItems['1']?.status).toBe('closed');
    expect(await repo.git(['show', 'main:src/answer.mjs'])).toBe('export const answer = 2;\n');
    expect(roles()).toHaveLength(4);
  });
});
