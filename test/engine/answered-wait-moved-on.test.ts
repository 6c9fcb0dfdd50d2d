/**
 * An answered wait whose resume is only queued (no free slot): a human moving the item on discards the kept
 * session once — worktree, state directory and the SQLite record — and the queued resume never starts; an item
 * left waiting resumes once the slot frees. After a restart (the wait restored from SQLite) the same holds.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createEngineStatePersistence } from '../../src/storage/engine-state/create-engine-state-persistence.ts';
import { type Database, openDatabase } from '../../src/storage/open-database.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import {
  ASKING_IMPLEMENTOR_ROUNDS,
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  withCountedDiscards,
} from '../support/cli-runtime-fixture.ts';
import { createManualClock } from '../support/engine/create-manual-clock.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';

let fixture: CliRuntimeFixture | null = null;
/** Opened by a test (the slot frees) or at the end, so no fake agent is left waiting for it. */
let openGate: string | null = null;
const engines: Engine[] = [];
const opened: Database[] = [];
afterEach(async () => {
  if (openGate !== null) await writeFile(openGate, '');
  openGate = null;
  for (const engine of engines.splice(0)) await engine.stop();
  for (const db of opened.splice(0)) if (db.open) db.close();
  await fixture?.cleanup();
  fixture = null;
});

async function setUp() {
  fixture = await createCliRuntimeFixture();
  const current = fixture;
  const slotFree = join(current.dir, 'slot-free');
  openGate = slotFree;
  const runtime = await current.runtimeFor([
    ...ASKING_IMPLEMENTOR_ROUNDS,
    // Item 2 holds the only slot until the test opens the gate, then waits for answers of its own.
    {
      promptIncludes: '## Work Item #2',
      steps: [{ waitForFile: slotFree }, { signal: { status: 'questions', questions: ['Anything else?'] } }],
    },
  ]);
  const { runtime: counted, discarded } = withCountedDiscards(runtime);
  const provider: InMemoryProvider = createInMemoryProvider({ initialPipelineStatus: 'pending' });
  const clock = createManualClock(Date.now());
  const dbPath = join(current.dir, 'flotilla.db');

  /** An engine as `flotilla run` wires it: state restored from SQLite, every event recorded there. */
  async function start(): Promise<Engine> {
    const db = openDatabase(dbPath);
    opened.push(db);
    const persistence = createEngineStatePersistence(db, { now: clock.now });
    const engine = createEngine({
      provider,
      logger: createRecordingLogger(),
      clock,
      questionTimeout: 3600,
      pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
      shutdownTimeout: 30,
      scheduler: { maxConcurrentAgents: 1 },
      initialState: persistence.loadInitialState(),
      createRuntimeAdapters: () => ({ planner: counted, implementor: counted, reviewer: counted }),
    });
    engines.push(engine);
    engine.onEvent((event, state) => persistence.record(event, state));
    await engine.start();
    return engine;
  }
  const waitingRows = () =>
    opened.at(-1)?.prepare('SELECT work_item_id FROM waiting_sessions').pluck().all() ?? [];

  provider.control.addWorkItem({ title: 'Add a store', body: 'Objective: store.', status: 'pending' });
  const first = await start();
  await waitUntil(
    () => first.getState().workItems['1']?.status === 'waiting-for-input',
    45_000,
    'item 1 to wait for input',
  );
  const waiting = first.getState().waitingForInput['1'];
  if (waiting === undefined) throw new Error('no waiting session for item 1');
  provider.control.addWorkItem({ title: 'Add a cache', body: 'Objective: cache.', status: 'pending' });
  await first.pollNow();
  await waitUntil(
    () => first.getState().workItems['2']?.status === 'in-progress',
    45_000,
    'item 2 to hold the slot',
  );
  return { first, start, provider, gate: slotFree, waiting, discarded, waitingRows };
}

/**
 * Answers item 1 from the dashboard (or, with `fromTracker`, lets the answer poller find the answer already on
 * the tracker) while item 2 holds the slot: the resume is queued, item 1 still waits.
 */
async function answerWhileTheSlotIsTaken(engine: Engine, fromTracker = false) {
  if (fromTracker) await engine.pollNow();
  else engine.enqueue({ type: 'questionsAnswered', workItemID: '1', answers: 'SQLite.', source: 'user' });
  await waitUntil(() => engine.getState().dispatchQueue.length === 1, 10_000, 'the resume to be queued');
  expect(engine.getState().workItems['1']?.status).toBe('waiting-for-input');
  expect(engine.getState().waitingForInput['1']?.answers).toContain('SQLite.');
}

/** Frees the slot (item 2's run ends with questions), then waits until nothing runs. */
async function freeTheSlot(engine: Engine, gate: string) {
  await writeFile(gate, '');
  await waitUntil(
    () => engine.getState().workItems['2']?.status === 'waiting-for-input',
    45_000,
    'item 2 to finish its run',
  );
  await engine.whenQuiescent();
}

/** Item 1's implementor sessions this process ran, by number: no 2 when its resume never started. */
function item1Sessions(engine: Engine): number[] {
  return Object.values(engine.getState().agentRuns)
    .filter((run) => run.role === 'implementor' && run.workItemID === '1')
    .map((run) => run.sessionNumber ?? 1);
}

describe('an answered wait whose resume is queued', () => {
  it('a human closing the item discards the session once, and the resume never starts', async () => {
    const { first: engine, provider, gate, waiting, discarded, waitingRows } = await setUp();
    await answerWhileTheSlotIsTaken(engine);

    provider.control.closeWorkItem('1');
    await engine.pollNow();
    await waitUntil(() => engine.getState().waitingForInput['1'] === undefined, 10_000, 'the wait to end');
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(false);
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(false);
    expect(waitingRows()).not.toContain('1');
    // The queued resume went with the session, before any slot freed.
    expect(engine.getState().dispatchQueue).toEqual([]);

    // The slot frees: the resume does not start on the closed item.
    await freeTheSlot(engine, gate);
    expect(item1Sessions(engine)).toEqual([1]);
    expect(engine.getState().workItems['1']?.status).toBe('closed');
    expect(discarded).toEqual([waiting.session]);
  }, 120_000);

  it('a human sending the item to needs-refinement discards it the same way', async () => {
    const { first: engine, provider, gate, waiting, discarded, waitingRows } = await setUp();
    await answerWhileTheSlotIsTaken(engine);
    provider.control.editWorkItem('1', { status: 'needs-refinement' });
    await engine.pollNow();
    await waitUntil(() => engine.getState().waitingForInput['1'] === undefined, 10_000, 'the wait to end');
    expect(engine.getState().dispatchQueue).toEqual([]);
    await freeTheSlot(engine, gate);
    expect(item1Sessions(engine)).toEqual([1]);
    expect(engine.getState().workItems['1']?.status).toBe('needs-refinement');
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(false);
    expect(waitingRows()).not.toContain('1');
    expect(discarded).toEqual([waiting.session]);
  }, 120_000);

  it('an item left waiting resumes once the slot frees', async () => {
    const { first: engine, gate, discarded } = await setUp();
    await answerWhileTheSlotIsTaken(engine);
    await writeFile(gate, '');
    await waitUntil(() => engine.getState().workItems['1']?.status === 'review', 45_000, 'item 1 in review');
    expect(item1Sessions(engine)).toEqual([1, 2]);
    expect(engine.getState().waitingForInput['1']).toBeUndefined();
    expect(discarded).toEqual([]);
  }, 120_000);

  it('after a restart the restored wait, answered again and moved on, is discarded once', async () => {
    const { first, start, provider, gate, waiting, discarded, waitingRows } = await setUp();
    await answerWhileTheSlotIsTaken(first);
    await first.stop();

    const second = await start();
    expect(second.getState().waitingForInput['1']?.sessionID).toBe(waiting.sessionID);
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(true);
    // The answer on the tracker is found again: while item 2 holds the slot once more, the resume queues.
    await waitUntil(
      () => second.getState().workItems['2']?.status === 'in-progress',
      45_000,
      'item 2 to hold the slot again',
    );
    await answerWhileTheSlotIsTaken(second, true);
    provider.control.closeWorkItem('1');
    await second.pollNow();
    await waitUntil(() => second.getState().waitingForInput['1'] === undefined, 10_000, 'the wait to end');
    await freeTheSlot(second, gate);
    // This process ran nothing for item 1: its resume was dropped.
    expect(item1Sessions(second)).toEqual([]);
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(false);
    expect(waitingRows()).not.toContain('1');
    expect(discarded).toEqual([waiting.session]);
  }, 180_000);
});
