/**
 * Automatic refinement (issue #29) across a restart: an item in needs-refinement is refined once per version
 * of its body. A new engine over the same SQLite state (the previous one stopped as after `kill -9`: nothing
 * but what each event recorded) does not refine it again; a human's edit of the body does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRun, ImplementorResult, RefinementReport } from '../../src/domain/index.ts';
import { buildFailureRun, buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
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

describe('engine: automatic refinement across a restart', () => {
  it('refines a body version once, whatever the restarts; a human edit of the body refines it again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-auto-refine-'));
    const dbPath = join(dir, 'flotilla.db');
    const provider = createInMemoryProvider();
    const item = provider.control.addWorkItem({
      title: 'Greeting thing',
      body: 'Make it greet somehow.',
      status: 'needs-refinement',
    });

    /** An engine as `flotilla run` wires it: state restored from the database, every event recorded. */
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
      await harness.settle();
      return { harness, db };
    };
    const refineRuns = (harness: EngineHarness): AgentRun[] =>
      harness.runs('implementor').filter((run) => run.role === 'implementor' && run.mode === 'refine');

    // First process: one refine run, proposed; the item waits for the human's decision.
    const first = await start([refined()]);
    expect(refineRuns(first.harness)).toHaveLength(1);
    const proposals = Object.values(first.harness.engine.getState().proposals);
    expect(proposals).toEqual([expect.objectContaining({ kind: 'refinement', status: 'pending' })]);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('needs-refinement');
    // The human closes the proposal without deciding; the item still waits in needs-refinement.
    provider.control.editWorkItem(proposals[0]!.id, { status: 'closed' });
    await first.harness.settle();
    expect(refineRuns(first.harness)).toHaveLength(1);
    // The process dies: no stop, the database closed as it is.
    first.db.close();
    harnesses.splice(0);
    first.harness.engine.stop().catch(() => {});

    // Second process, same body: nothing refined (the script would fail a run if one started).
    const second = await start([buildFailureRun('error', 'must not run')]);
    expect(refineRuns(second.harness)).toEqual([]);
    expect(second.harness.engine.getState().refinedBodies[item.id]).toHaveLength(1);
    await second.harness.engine.stop();
    second.db.close();

    // A human rewrites the description: a third process refines the new version.
    provider.control.editWorkItem(item.id, { body: 'Greet the user by the name given on the command line.' });
    const third = await start([refined()]);
    expect(refineRuns(third.harness)).toHaveLength(1);
    expect(third.harness.engine.getState().refinedBodies[item.id]).toHaveLength(2);
  });
});
