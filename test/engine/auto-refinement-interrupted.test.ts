/**
 * Automatic refinement (issue #29) stopped from outside does not count: a refine run the control plane's
 * stop cancelled (Ctrl-C, `q`), or one a `kill -9` left running, gave nothing back, so the next process
 * refines the same version of the body again. One that fails on its own still counts (no retry loop). Each
 * engine runs over the same SQLite state, as `flotilla run` wires it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRun, ImplementorResult, RefinementReport } from '../../src/domain/index.ts';
import {
  buildFailureRun,
  buildHangingRun,
  buildResultRun,
} from '../../src/runtimes/scripted/build-scripted-runs.ts';
import type { ScriptedRun } from '../../src/runtimes/scripted/scripted-run.ts';
import { createEngineStatePersistence } from '../../src/storage/engine-state/create-engine-state-persistence.ts';
import { type Database, openDatabase } from '../../src/storage/open-database.ts';
import { createEngineHarness, type EngineHarness } from '../support/engine-harness.ts';
import { createInMemoryProvider } from '../support/in-memory-provider/create-in-memory-provider.ts';

const REPORT: RefinementReport = {
  mode: 'refine',
  summary: 'Made the greeting precise.',
  title: 'Greet the user by name',
  body: 'Print `hello, <name>`.',
  acceptanceCriteria: ['greet("Ada") prints hello, Ada'],
  files: ['src/greet.js'],
  size: 'low',
  labels: [],
};
const refined = (): ScriptedRun =>
  buildResultRun({
    role: 'implementor',
    outcome: 'completed',
    summary: REPORT.summary,
    patch: null,
    report: REPORT,
  } satisfies ImplementorResult);

let dir: string | null = null;
const opened: Database[] = [];
const harnesses: EngineHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.engine.stop();
  for (const db of opened.splice(0)) if (db.open) db.close();
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

/** A provider with one item waiting in needs-refinement, and a way to start engines over one database. */
async function setUp() {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-refine-stop-'));
  const dbPath = join(dir, 'flotilla.db');
  const provider = createInMemoryProvider();
  const item = provider.control.addWorkItem({
    title: 'Greeting thing',
    body: 'Make it greet somehow.',
    status: 'needs-refinement',
  });
  const start = async (implementor: ScriptedRun[]) => {
    const db = openDatabase(dbPath);
    opened.push(db);
    const persistence = createEngineStatePersistence(db);
    const harness = createEngineHarness({
      provider,
      script: { implementor },
      config: {
        autoRefine: true,
        // The refinement waits for a human: the item stays in needs-refinement, its proposal pending.
        approval: { plans: 'auto', refinements: 'required' },
        initialState: persistence.loadInitialState(),
      },
    });
    harnesses.push(harness);
    harness.engine.onEvent((event, state) => persistence.record(event, state));
    await harness.engine.start();
    return { harness, db, persistence };
  };
  return { provider, item, start };
}

const refineRuns = (harness: EngineHarness): AgentRun[] =>
  harness.runs('implementor').filter((run) => run.role === 'implementor' && run.mode === 'refine');
const isRunning = (harness: EngineHarness) =>
  harness.waitFor(
    () => refineRuns(harness).some((run) => run.status === 'running'),
    'the refine run to be running',
  );

describe('engine: an automatic refinement stopped from outside', () => {
  it('stopped with the control plane (Ctrl-C): the next process refines the same body again', async () => {
    const { item, start } = await setUp();
    const first = await start([buildHangingRun()]);
    await first.harness.engine.pollNow();
    await isRunning(first.harness);
    await first.harness.engine.stop();
    expect(refineRuns(first.harness).map((run) => run.status)).toEqual(['cancelled']);
    expect(first.harness.engine.getState().refinedBodies[item.id]).toBeUndefined();
    first.db.close();

    const second = await start([refined()]);
    await second.harness.settle();
    expect(refineRuns(second.harness)).toHaveLength(1);
    expect(Object.values(second.harness.engine.getState().proposals)).toEqual([
      expect.objectContaining({ kind: 'refinement', status: 'pending', subjectID: item.id }),
    ]);
  });

  it('left running by kill -9: recovered as interrupted, and refined again', async () => {
    const { item, start } = await setUp();
    const first = await start([buildHangingRun()]);
    await first.harness.engine.pollNow();
    await isRunning(first.harness);
    expect(first.harness.engine.getState().refinedBodies[item.id]).toHaveLength(1);
    // The process dies: no stop, the database closed as it is.
    first.db.close();
    harnesses.splice(0);
    first.harness.engine.stop().catch(() => {});

    const second = await start([refined()]);
    await second.harness.settle();
    expect(refineRuns(second.harness)).toHaveLength(1);
    expect(second.persistence.getRun(refineRuns(first.harness)[0]!.sessionID)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('interrupted'),
    });
    expect(Object.values(second.harness.engine.getState().proposals)).toEqual([
      expect.objectContaining({ kind: 'refinement', status: 'pending', subjectID: item.id }),
    ]);
  });

  it('failed on its own: counted, never refined again by the next process', async () => {
    const { item, start } = await setUp();
    const first = await start([buildFailureRun('error', 'the agent gave up')]);
    await first.harness.settle();
    expect(refineRuns(first.harness).map((run) => run.status)).toEqual(['failed']);
    await first.harness.engine.stop();
    first.db.close();

    const second = await start([buildFailureRun('error', 'must not run')]);
    await second.harness.settle();
    expect(refineRuns(second.harness)).toEqual([]);
    expect(second.harness.engine.getState().refinedBodies[item.id]).toHaveLength(1);
  });
});
