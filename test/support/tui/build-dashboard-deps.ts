import type { StatsRecords } from '../../../src/analytics/stats-records.ts';
import type { EngineState } from '../../../src/engine/state-store/index.ts';
import type { DashboardDeps } from '../../../src/tui/dashboard-deps.ts';
import { createStreamBuffers } from '../../../src/tui/streams/create-stream-buffers.ts';
import type { ItemAgentNotes } from '../../../src/tui/view-model/build-agent-note-lines.ts';
import { createFakeDashboardEngine, type FakeDashboardEngine } from './create-fake-dashboard-engine.ts';

export interface TestDashboard {
  deps: DashboardDeps;
  engine: FakeDashboardEngine;
  /** Resolves (or rejects) the pending start(). */
  finishStart(error?: Error): void;
  stops: number;
  forceExits: number;
  readFiles: string[];
  /** Text `readTextFile` returns per path (a missing path rejects). */
  files: Record<string, string>;
  /** What `loadStatsRecords` returns (null: it rejects). */
  stats: StatsRecords | null;
  /** What `loadAgentNotes` returns per item (none: empty lists); `noteLoads` lists the items it was asked for. */
  notes: Record<string, ItemAgentNotes>;
  noteLoads: string[];
  close(): void;
}

/** DashboardDeps over a fake engine on a real store, with start() held until `finishStart`. */
export function buildDashboardDeps(
  state: EngineState,
  options: {
    startImmediately?: boolean;
    initialMessage?: string;
    previousCostUSD?: number;
    /** stop() rejects with it. */
    stopError?: Error;
  } = {},
): TestDashboard {
  const engine = createFakeDashboardEngine(state);
  const streams = createStreamBuffers(engine, { notifyIntervalMs: 5 });
  let resolveStart: () => void = () => {};
  let rejectStart: (error: Error) => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    resolveStart = resolve;
    rejectStart = reject;
  });
  const test: TestDashboard = {
    engine,
    stops: 0,
    forceExits: 0,
    readFiles: [],
    files: {},
    stats: null,
    notes: {},
    noteLoads: [],
    finishStart(error) {
      if (error) rejectStart(error);
      else resolveStart();
    },
    close: () => streams.close(),
    deps: {
      engine,
      streams,
      getReviewHistory: async (id) => engine.reviews[id] ?? { reviews: [], inlineComments: [] },
      async readTextFile(path) {
        test.readFiles.push(path);
        const text = test.files[path];
        if (text === undefined) throw new Error(`ENOENT: ${path}`);
        return text;
      },
      async loadAgentNotes(workItemID) {
        test.noteLoads.push(workItemID);
        return test.notes[workItemID] ?? { decisions: [], questions: [] };
      },
      async loadStatsRecords() {
        if (test.stats === null) throw new Error('no stats in this test');
        return test.stats;
      },
      repositoryLabel: 'acme/repo',
      logFilePath: '/tmp/flotilla.log',
      start: () => started,
      async stop() {
        test.stops += 1;
        if (options.stopError) throw options.stopError;
      },
      forceExit() {
        test.forceExits += 1;
      },
      initialMessage: options.initialMessage,
      previousCostUSD: options.previousCostUSD,
    },
  };
  if (options.startImmediately !== false) test.finishStart();
  return test;
}
