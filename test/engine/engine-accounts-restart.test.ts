/**
 * Accounts across a restart: a new engine over the same SQLite state keeps to the account its runtime used
 * last (while it is available) and fails over to the least recently used one, counting the runs the previous
 * process made — not config order, as if nothing had run. Parkings of exhausted accounts come back too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMIT_BACKOFF_MAX_MS, parkingKey } from '../../src/domain/index.ts';
import { UNNAMED_RUNTIME } from '../../src/engine/state-store/engine-state.ts';
import {
  buildAddFilePatch,
  buildImplementorResult,
} from '../../src/runtimes/scripted/build-scripted-results.ts';
import { buildFailureRun, buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
import type { ScriptedRun } from '../../src/runtimes/scripted/scripted-run.ts';
import { createEngineStatePersistence } from '../../src/storage/engine-state/create-engine-state-persistence.ts';
import { type Database, openDatabase } from '../../src/storage/open-database.ts';
import { createShiftableClock } from '../support/create-shiftable-clock.ts';
import { createEngineHarness, type EngineHarness } from '../support/engine-harness.ts';
import { createInMemoryProvider } from '../support/in-memory-provider/create-in-memory-provider.ts';

// The scripted adapter names no runtime: its runs, parkings and accounts are the unnamed runtime's.
const RUNTIME = UNNAMED_RUNTIME;
const ACCOUNTS = ['work', 'spare', 'third'].map((name) => ({ name, runtime: RUNTIME }));

const exhausted = () => buildFailureRun('usage-limit', "You've hit your limit");
const implemented = (file: string) =>
  buildResultRun(
    buildImplementorResult('completed', { summary: `Added ${file}`, patch: buildAddFilePatch(file, 'x\n') }),
  );

let dir: string | null = null;
const opened: Database[] = [];
const harnesses: EngineHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.engine.stop();
  for (const db of opened.splice(0)) if (db.open) db.close();
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe('engine: accounts across a restart', () => {
  it('stays on the account used last, and fails over to the least recently used one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-accounts-'));
    const dbPath = join(dir, 'flotilla.db');
    const clock = createShiftableClock();
    // Checks stay pending: each item stops in review after its implementor (no reviewer runs).
    const provider = createInMemoryProvider();

    /** An engine as `flotilla run` wires it: state restored from the database, every event recorded. */
    const start = async (implementor: ScriptedRun[]) => {
      const db = openDatabase(dbPath);
      opened.push(db);
      const persistence = createEngineStatePersistence(db, { now: clock.now });
      const harness = createEngineHarness({
        provider,
        script: { implementor },
        config: { clock, accounts: ACCOUNTS, initialState: persistence.loadInitialState() },
      });
      harnesses.push(harness);
      harness.engine.onEvent((event, state) => persistence.record(event, state));
      await harness.engine.start();
      return { harness, db };
    };
    const accountsOf = (harness: EngineHarness, workItemID: string) =>
      harness
        .runs('implementor')
        .filter((run) => run.role === 'implementor' && run.workItemID === workItemID)
        .map((run) => [run.account, run.failureReason ?? null]);

    // First process: `work` is exhausted on the first item's first run, which fails over to `spare` and
    // completes.
    const firstItem = provider.control.addWorkItem({
      title: 'First',
      body: 'Objective: first.',
      status: 'pending',
    });
    const first = await start([exhausted(), implemented('first.txt')]);
    await first.harness.settle();
    expect(accountsOf(first.harness, firstItem.id)).toEqual([
      ['work', 'usage-limit'],
      ['spare', null],
    ]);
    const workParking = first.harness.engine.getState().parkings[parkingKey(RUNTIME, 'work')];
    expect(workParking).toMatchObject({ account: 'work', reason: 'usage-limit' });
    await first.harness.engine.stop();
    first.db.close();

    // `work` recovers while nothing runs; the next process starts over the same database.
    clock.advance(LIMIT_BACKOFF_MAX_MS);
    const secondItem = provider.control.addWorkItem({
      title: 'Second',
      body: 'Objective: second.',
      status: 'pending',
    });
    const second = await start([exhausted(), implemented('second.txt')]);
    // The parking came back as it was stored (expired now: it holds nothing back).
    expect(second.harness.engine.getState().parkings[parkingKey(RUNTIME, 'work')]).toEqual(workParking);
    await second.harness.settle();
    // The second item stays on `spare` (used last, available); exhausted there, it fails over to `third`, never used and
    // so less recently used than `work`.
    expect(accountsOf(second.harness, secondItem.id)).toEqual([
      ['spare', 'usage-limit'],
      ['third', null],
    ]);
    expect(second.harness.engine.getState().workItems[secondItem.id]?.status).toBe('review');
  });
});
