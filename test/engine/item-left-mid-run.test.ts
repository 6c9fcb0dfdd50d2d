/**
 * A human takes an item out of its running implementor's hands (closes it, blocks it, sends it to
 * needs-refinement): the run is cancelled — the agent's process ends, its worktree goes — and the item stays
 * where the human put it, with no revision made from the unfinished work. The same for an item taken out of
 * review while its reviewer runs: no review is posted and the item is not moved on by a verdict.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkItemStatus } from '../../src/domain/index.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { type CliRuntimeFixture, createCliRuntimeFixture } from '../support/cli-runtime-fixture.ts';
import { createInMemoryProvider } from '../support/in-memory-provider/create-in-memory-provider.ts';

let fixture: CliRuntimeFixture | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.stop();
  engine = null;
  await fixture?.cleanup();
  fixture = null;
});

type Runtime = Awaited<ReturnType<CliRuntimeFixture['runtimeFor']>>;

/** One pending item and an engine whose every role runs on `runtime`; polls only when asked. */
async function startEngine(runtime: Runtime, initialPipelineStatus: 'pending' | 'success') {
  const provider = createInMemoryProvider({ initialPipelineStatus });
  provider.control.addWorkItem({ title: 'Add a store', body: 'Objective: store.', status: 'pending' });
  const started = createEngine({
    provider,
    logger: createRecordingLogger(),
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    scheduler: { maxConcurrentAgents: 1 },
    createRuntimeAdapters: () => ({ planner: runtime, implementor: runtime, reviewer: runtime }),
  });
  engine = started;
  await started.start();
  return { provider, engine: started };
}

/** A human moves item 1 in the tracker; the engine polls and cancels the run at work, and settles. */
async function moveItemAndAwaitCancel(
  { provider, engine: current }: Awaited<ReturnType<typeof startEngine>>,
  status: WorkItemStatus,
) {
  if (status === 'closed') provider.control.closeWorkItem('1');
  else provider.control.editWorkItem('1', { status });
  await current.pollNow();
  await waitUntil(
    () => Object.values(current.getState().agentRuns).some((run) => run.status === 'cancelled'),
    20_000,
    'the run to be cancelled',
  );
  await current.whenQuiescent();
}

describe('a human moving an item while its implementor runs', () => {
  it.each(['closed', 'blocked', 'needs-refinement'] as const)(
    'to %s cancels the run, and the item stays there with no revision',
    async (status: WorkItemStatus) => {
      fixture = await createCliRuntimeFixture();
      const started = join(fixture.dir, 'started');
      const finished = join(fixture.dir, 'finished');
      const runtime = await fixture.runtimeFor([
        {
          steps: [
            { write: { path: 'src/store.js', content: 'export const store = 1;\n' } },
            { commit: 'half a store' },
            { run: `touch ${started}` },
            // Never opened: only a cancel ends the wait before its 30 s are up.
            { waitForFile: join(fixture.dir, 'never') },
            { run: `touch ${finished}` },
            { signal: { status: 'done', result: { outcome: 'completed', summary: 'store added' } } },
          ],
        },
      ]);
      const running = await startEngine(runtime, 'pending');
      const { provider, engine: current } = running;
      await waitUntil(() => existsSync(started), 30_000, 'the implementor to be at work');
      const worktree = join(fixture.repo.root, '.worktrees', 'agent', 'flotilla', '1');
      expect(existsSync(worktree)).toBe(true);

      await moveItemAndAwaitCancel(running, status);

      // Cancelled, not waited out: the agent never got past its wait.
      expect(existsSync(finished)).toBe(false);
      expect(current.getState().workItems['1']?.status ?? 'closed').toBe(status);
      expect(provider.control.toWorkItem('1').status).toBe(status);
      expect(Object.keys(current.getState().revisions)).toEqual([]);
      expect(existsSync(worktree)).toBe(false);
      expect(Object.values(current.getState().agentRuns).map((run) => run.status)).toEqual(['cancelled']);
    },
    90_000,
  );
});

describe('a human moving an item while its reviewer runs', () => {
  it.each(['closed', 'approved'] as const)(
    'to %s cancels the reviewer: no review is posted, and the item stays there',
    async (status: WorkItemStatus) => {
      fixture = await createCliRuntimeFixture();
      const started = join(fixture.dir, 'review-started');
      const finished = join(fixture.dir, 'review-finished');
      const runtime = await fixture.runtimeFor([
        {
          steps: [
            { write: { path: 'src/store.js', content: 'export const store = 1;\n' } },
            { commit: 'a store' },
            { signal: { status: 'done', result: { outcome: 'completed', summary: 'store added' } } },
          ],
        },
        {
          steps: [
            { run: `touch ${started}` },
            // Never opened: only a cancel ends the wait before its 30 s are up.
            { waitForFile: join(fixture.dir, 'never') },
            { run: `touch ${finished}` },
            {
              signal: {
                status: 'done',
                result: { review: { verdict: 'approve', summary: 'looks good', comments: [] } },
              },
            },
          ],
        },
      ]);
      const running = await startEngine(runtime, 'success');
      const { provider, engine: current } = running;
      await waitUntil(() => existsSync(started), 60_000, 'the reviewer to be at work');
      const [revisionID] = Object.keys(current.getState().revisions);
      expect(revisionID).toBeDefined();

      await moveItemAndAwaitCancel(running, status);

      expect(existsSync(finished)).toBe(false);
      const runs = Object.values(current.getState().agentRuns);
      expect(runs.map((run) => [run.role, run.status])).toEqual([
        ['implementor', 'completed'],
        ['reviewer', 'cancelled'],
      ]);
      expect(provider.control.toWorkItem('1').status).toBe(status);
      expect((await provider.revisionReader.getReviewHistory(revisionID as string)).reviews).toEqual([]);
    },
    120_000,
  );
});
