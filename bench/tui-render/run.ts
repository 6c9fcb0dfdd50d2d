/**
 * Dashboard render benchmark: the real DashboardApp rendered by Ink (same options as runDashboard: maxFps 20,
 * no incremental rendering) into a fake 200×50 TTY, over a zustand store holding 500 work items (every
 * status, priorities), ~100 revisions with pipelines, ~200 finished runs and 5 running implementor/reviewer
 * runs whose streams are pushed by hand. Measures the first render, re-renders after a state change (with
 * and without throttle wait), 10 s of sustained load, and a 10,000-line stream in the detail pane.
 * Prints a table and a JSON line. Run: npm run bench:tui (React's production build: NODE_ENV=production;
 * React commit times from its Profiler: REACT_PROFILER=1, development build only).
 */
import { EventEmitter } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AgentRun,
  ReviewHistory,
  Revision,
  RevisionFile,
  WorkItem,
  WorkItemPriority,
  WorkItemStatus,
} from '../../src/domain/index.ts';
import type { EngineState, QueuedDispatch } from '../../src/engine/state-store/index.ts';
import type { DashboardDeps, DashboardEngine } from '../../src/tui/dashboard-deps.ts';
import { buildDetailContent } from '../../src/tui/view-model/build-detail-content.ts';
import { buildListLayout } from '../../src/tui/view-model/build-list-layout.ts';
import { buildViewport } from '../../src/tui/view-model/build-viewport.ts';
import { buildWorkItemSections } from '../../src/tui/view-model/build-work-item-sections.ts';
import {
  buildImplementorRun,
  buildPipeline,
  buildPlannerRun,
  buildReviewerRun,
  buildRevision,
  buildSpec,
  buildTestState,
  buildWorkItem,
} from '../../test/support/shared/builders/index.ts';

// Ink draws no frames when it thinks it runs in CI (is-in-ci reads the environment once, when Ink is
// imported), and chalk would drop colours on a piped stdout; so both are settled before Ink is loaded.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
process.env.FORCE_COLOR ??= '1';
const { createElement, Profiler } = await import('react');
const { render } = await import('ink');
const { DashboardApp } = await import('../../src/tui/dashboard-app.tsx');
const { createStreamBuffers } = await import('../../src/tui/streams/create-stream-buffers.ts');

const COLUMNS = 200;
const ROWS = 50;
const MOUNTS = Number(process.env.MOUNTS ?? 20);
const CHANGES = Number(process.env.CHANGES ?? 200);
const SUSTAINED_MS = Number(process.env.SUSTAINED_MS ?? 10_000);
const LINES_PER_SECOND = 20;
const CHANGES_PER_SECOND = 10;
const LONG_STREAM_LINES = 10_000;
const PROFILE_REACT = process.env.REACT_PROFILER === '1';
const T0 = Date.now();

// ─── helpers ────────────────────────────────────────────────────────────────────────────────────────────

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
interface Stats {
  n: number;
  median: number;
  p90: number;
  p99: number;
  max: number;
}
function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const roundStats = (s: Stats) => ({
  n: s.n,
  median: round(s.median),
  p90: round(s.p90),
  p99: round(s.p99),
  max: round(s.max),
});
const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(2)} ms`);
const fmtStats = (s: Stats) =>
  s.n === 0
    ? 'n/a'
    : `median ${ms(s.median)} · p90 ${ms(s.p90)} · p99 ${ms(s.p99)} · max ${ms(s.max)} (n=${s.n})`;
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const MiB = (bytes: number) => round(bytes / 1024 / 1024, 1);
const benchStarted = performance.now();
const progress = (text: string) =>
  process.stderr.write(`… ${((performance.now() - benchStarted) / 1000).toFixed(1)} s ${text}\n`);

/** Deterministic pseudo-random numbers (mulberry32), so every run renders the same state. */
function createRandom(seed: number): () => number {
  let value = seed;
  return () => {
    value = (value + 0x6d2b79f5) | 0;
    let t = Math.imul(value ^ (value >>> 15), 1 | value);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = createRandom(42);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;
const stripAnsi = (text: string) => text.replace(ANSI, '');

// ─── a fake terminal ────────────────────────────────────────────────────────────────────────────────────

interface Frame {
  at: number;
  text: string;
}

/** A TTY-like stdout: counts bytes and frames (writes longer than an escape sequence) and wakes waiters. */
class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  columns = COLUMNS;
  rows = ROWS;
  bytes = 0;
  frames = 0;
  firstFrameAt: number | null = null;
  lastFrame = '';
  private waiters: Array<{ test: (text: string) => boolean; resolve: (frame: Frame) => void }> = [];

  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    const at = performance.now();
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.bytes += Buffer.byteLength(text);
    if (text.length > 32) {
      this.frames += 1;
      this.firstFrameAt ??= at;
      const plain = stripAnsi(text);
      this.lastFrame = plain;
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(plain)) return true;
        waiter.resolve({ at, text: plain });
        return false;
      });
    }
    const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }

  /** The next frame for which `test` holds (checked against frames written after this call). */
  waitFor(test: (text: string) => boolean, timeoutMs = 5_000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching frame within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
      });
    });
  }
}

/** A TTY-like stdin that Ink can put in raw mode; `press` delivers a key. */
class FakeKeyboard extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  press(key: string): void {
    this.data = key;
    this.emit('readable');
  }
  read(): string | null {
    const { data } = this;
    this.data = null;
    return data;
  }
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

const KEYS = { down: 'j', tab: '\t', home: 'g', pageDown: '\u001b[6~', pageUp: '\u001b[5~' } as const;

// ─── agent streams ──────────────────────────────────────────────────────────────────────────────────────

/** One session's output: what was said so far is replayed to a new subscriber, then chunks as pushed. */
class LineSource {
  private readonly history: string[] = [];
  private readonly subscribers = new Set<{ queue: string[]; head: number; wake: (() => void) | null }>();

  push(chunk: string): void {
    this.history.push(chunk);
    for (const subscriber of this.subscribers) {
      subscriber.queue.push(chunk);
      subscriber.wake?.();
    }
  }

  subscribe(): AsyncIterable<string> {
    const subscribers = this.subscribers;
    const history = this.history;
    return {
      [Symbol.asyncIterator]() {
        const subscriber = { queue: [...history], head: 0, wake: null as (() => void) | null };
        subscribers.add(subscriber);
        return {
          next: () =>
            new Promise<IteratorResult<string>>((resolve) => {
              const take = () => {
                if (subscriber.head < subscriber.queue.length) {
                  const value = subscriber.queue[subscriber.head]!;
                  subscriber.head += 1;
                  if (subscriber.head > 1024) {
                    subscriber.queue.splice(0, subscriber.head);
                    subscriber.head = 0;
                  }
                  resolve({ value, done: false });
                } else {
                  subscriber.wake = () => {
                    subscriber.wake = null;
                    take();
                  };
                }
              };
              take();
            }),
          return: async () => {
            subscribers.delete(subscriber);
            return { value: undefined, done: true };
          },
        };
      },
    };
  }
}

const AGENT_PHRASES = [
  'Reading src/engine/scheduler/create-scheduler.ts to see how slots are released',
  'Running `npx vitest run src/engine` — 412 passed, 0 failed',
  'The failing assertion compares the queue order; the backoff entry sorts before the capacity entry.',
  'Editing src/providers/github/fetch-revisions.ts: paginate with the Link header instead of page numbers',
  '  - const next = page + 1;',
  '  + const next = parseNextLink(response.headers.get("link"));',
  'I will add a test for the empty-page case, then re-run the suite and the type check.',
  'tsc --noEmit: no errors. biome check: 2 files formatted.',
];
let lineCounter = 0;
function agentLine(): string {
  lineCounter += 1;
  const phrase = pick(AGENT_PHRASES);
  // Now and then a long paragraph that wraps in the detail pane.
  return lineCounter % 17 === 0 ? `${phrase} ${phrase} ${phrase}` : `${phrase} (${lineCounter})`;
}

// ─── the engine state ───────────────────────────────────────────────────────────────────────────────────

const TITLE_WORDS = [
  'Add',
  'rate limiting',
  'to the',
  'public API',
  'Export',
  'CSV reports',
  'Fix',
  'flaky scheduler test',
  'Refactor',
  'provider polling',
  'Support',
  'dark mode',
  'in the settings page',
  'Document',
  'the retry policy',
  'Migrate',
  'the audit log',
  'to SQLite',
];
function title(index: number): string {
  const words = 3 + (index % 6);
  const parts: string[] = [];
  for (let i = 0; i < words; i += 1) parts.push(TITLE_WORDS[(index * 7 + i * 5) % TITLE_WORDS.length]!);
  return parts.join(' ');
}

interface Scenario {
  state: EngineState;
  /** Sessions of the 5 running runs, in list order (the first is the first running row). */
  runningSessions: string[];
  /** Backlog items (pending/ready, no run, not queued): moving one to blocked moves it to NEEDS YOU. */
  backlogIDs: string[];
  /** Items whose status may be changed freely under load (never the running or queued ones). */
  churnIDs: string[];
  revisionIDs: string[];
}

function buildScenario(): Scenario {
  const workItems: WorkItem[] = [];
  const revisions: Revision[] = [];
  const agentRuns: AgentRun[] = [];
  const dispatchQueue: QueuedDispatch[] = [];
  const runningSessions: string[] = [];
  const backlogIDs: string[] = [];
  const churnIDs: string[] = [];
  const priorities: Array<WorkItemPriority | null> = ['high', 'medium', 'medium', 'low', null];
  let sessionCounter = 0;
  const session = (role: string) => {
    sessionCounter += 1;
    return `${role}-${sessionCounter.toString(16).padStart(4, '0')}-4f1c-9a8e-bench`;
  };
  const minutesAgo = (minutes: number) => T0 - minutes * 60_000;
  const addRevision = (itemID: string, pipeline: 'success' | 'failure' | 'pending' | null) => {
    const id = String(1000 + revisions.length);
    revisions.push(
      buildRevision({
        id,
        workItemID: itemID,
        title: `#${itemID} ${title(Number(itemID))}`,
        headSHA: `${id}f00dcafe${itemID}`.padEnd(40, '0'),
        url: `https://github.example/acme/widgets/pull/${id}`,
        pipeline:
          pipeline === null
            ? null
            : pipeline === 'failure'
              ? { status: 'failure', url: `/tmp/checks-${id}.log`, reason: 'unit tests' }
              : buildPipeline(pipeline),
      }),
    );
    return id;
  };
  const finished = (itemID: string, role: 'implementor' | 'reviewer', status: AgentRun['status']) => {
    const base = {
      sessionID: session(role),
      workItemID: itemID,
      status,
      requestedAt: minutesAgo(60 + random() * 600),
      endedAt: minutesAgo(30),
      error: status === 'failed' ? 'agent exited: tests still failing after 3 attempts' : null,
    };
    agentRuns.push(
      role === 'implementor'
        ? buildImplementorRun(base)
        : buildReviewerRun({ ...base, revisionID: `r-${itemID}` }),
    );
  };

  // 500 items: [status, count, extra]
  const plan: Array<[string, number]> = [
    ['running-implementor', 3],
    ['running-reviewer', 2],
    ['queued', 8],
    ['failed', 15],
    ['approved', 50],
    ['review', 40],
    ['blocked', 30],
    ['needs-refinement', 15],
    ['in-progress', 2],
    ['ready', 110],
    ['pending', 150],
    ['closed', 75],
  ];
  let index = 0;
  for (const [kind, count] of plan) {
    for (let k = 0; k < count; k += 1) {
      index += 1;
      const id = String(index);
      const base = {
        id,
        title: title(index),
        priority: pick(priorities),
        complexity: pick(['trivial', 'low', 'medium', 'high'] as const),
        createdAt: new Date(minutesAgo(5000 - index)).toISOString(),
        blockedBy: index % 11 === 0 && index > 20 ? [String(index - 13)] : [],
      };
      const status = (s: WorkItemStatus) => s;
      switch (kind) {
        case 'running-implementor': {
          const sessionID = session('implementor');
          runningSessions.push(sessionID);
          workItems.push(buildWorkItem({ ...base, status: status('in-progress') }));
          finished(id, 'implementor', 'cancelled');
          agentRuns.push(
            buildImplementorRun({
              sessionID,
              workItemID: id,
              status: 'running',
              requestedAt: minutesAgo(3 + k),
              endedAt: null,
              logFilePath: `.flotilla/logs/sessions/implementor-${id}-${sessionID.slice(0, 8)}.log`,
            }),
          );
          break;
        }
        case 'running-reviewer': {
          const sessionID = session('reviewer');
          runningSessions.push(sessionID);
          const revisionID = addRevision(id, 'success');
          workItems.push(buildWorkItem({ ...base, status: 'review', linkedRevision: revisionID }));
          finished(id, 'implementor', 'completed');
          agentRuns.push(
            buildReviewerRun({
              sessionID,
              workItemID: id,
              revisionID,
              status: 'running',
              requestedAt: minutesAgo(1 + k),
              endedAt: null,
              logFilePath: `.flotilla/logs/sessions/reviewer-${id}-${sessionID.slice(0, 8)}.log`,
            }),
          );
          break;
        }
        case 'queued':
          workItems.push(buildWorkItem({ ...base, status: 'ready' }));
          dispatchQueue.push({
            key: `implementor:${id}`,
            command: { type: 'requestImplementorRun', workItemID: id },
            reason: k % 3 === 0 ? 'backoff' : 'capacity',
            notBefore: k % 3 === 0 ? T0 + 60_000 : null,
            priority: 2,
            queuedAt: minutesAgo(k),
          });
          break;
        case 'failed':
          workItems.push(buildWorkItem({ ...base, status: k % 2 === 0 ? 'ready' : 'in-progress' }));
          finished(id, 'implementor', 'completed');
          finished(id, 'implementor', k % 4 === 0 ? 'timed-out' : 'failed');
          break;
        case 'approved': {
          const revisionID = addRevision(id, 'success');
          workItems.push(buildWorkItem({ ...base, status: 'approved', linkedRevision: revisionID }));
          finished(id, 'implementor', 'completed');
          finished(id, 'reviewer', 'completed');
          break;
        }
        case 'review': {
          const revisionID = addRevision(id, pick(['success', 'success', 'failure', 'pending', null]));
          workItems.push(buildWorkItem({ ...base, status: 'review', linkedRevision: revisionID }));
          finished(id, 'implementor', 'completed');
          if (k % 4 === 0) finished(id, 'reviewer', 'completed');
          break;
        }
        case 'ready':
        case 'pending':
          workItems.push(buildWorkItem({ ...base, status: kind }));
          backlogIDs.push(id);
          churnIDs.push(id);
          if (k % 12 === 0) finished(id, 'implementor', 'cancelled');
          break;
        case 'closed':
          workItems.push(buildWorkItem({ ...base, status: 'closed' }));
          if (k % 2 === 0) finished(id, 'implementor', 'completed');
          break;
        default:
          workItems.push(buildWorkItem({ ...base, status: kind as WorkItemStatus, kind: 'task' }));
          if (kind !== 'in-progress') churnIDs.push(id);
      }
    }
  }
  agentRuns.push(
    buildPlannerRun({
      sessionID: session('planner'),
      status: 'completed',
      specPaths: ['docs/specs/api.md', 'docs/specs/reports.md'],
      requestedAt: minutesAgo(600),
      endedAt: minutesAgo(590),
    }),
  );
  const state = buildTestState({
    workItems,
    revisions,
    agentRuns,
    dispatchQueue,
    specs: [
      buildSpec({ filePath: 'docs/specs/api.md', blobSHA: 'a1' }),
      buildSpec({ filePath: 'docs/specs/reports.md', blobSHA: 'b2' }),
      buildSpec({ filePath: 'docs/specs/dark-mode.md', blobSHA: 'c3' }),
    ],
    lastPlannedSHAs: { 'docs/specs/api.md': 'a1', 'docs/specs/reports.md': 'b2' },
  });
  // The running sessions in the order their rows appear in the list.
  const order = buildWorkItemSections(state).flatMap((section) => section.rows.map((row) => row.item.id));
  runningSessions.sort((a, b) => {
    const itemOf = (sessionID: string) => {
      const run = state.agentRuns[sessionID];
      return run && run.role !== 'planner' ? run.workItemID : '';
    };
    return order.indexOf(itemOf(a)) - order.indexOf(itemOf(b));
  });
  return { state, runningSessions, backlogIDs, churnIDs, revisionIDs: revisions.map((r) => r.id) };
}

const BODY = Array.from(
  { length: 40 },
  (_, i) => `${i % 8 === 0 ? '## Section' : 'Acceptance: the endpoint returns 429 with Retry-After'} ${i}`,
).join('\n');
const FILES: RevisionFile[] = Array.from({ length: 12 }, (_, i) => ({
  path: `src/engine/module-${i}/file-${i}.ts`,
  status: i % 5 === 0 ? 'added' : 'modified',
  patch: null,
}));
const REVIEWS: ReviewHistory = {
  reviews: [
    { author: 'flotilla', state: 'CHANGES_REQUESTED', body: 'Missing test for the empty page.' },
    { author: 'flotilla', state: 'APPROVED', body: 'Looks good.\nThe retry policy is documented.' },
  ],
  inlineComments: [{ path: 'src/a.ts', line: 12, author: 'flotilla', body: 'Name this constant.' }],
};
const CHECKS_LOG = Array.from({ length: 80 }, (_, i) => `[check] step ${i}: ok`).join('\n');

// ─── mounting the dashboard ─────────────────────────────────────────────────────────────────────────────

interface Probe {
  inkRenderTimes: number[];
  reactCommits: number[];
}
const probe: Probe = { inkRenderTimes: [], reactCommits: [] };
const resetProbe = () => {
  probe.inkRenderTimes = [];
  probe.reactCommits = [];
};

interface Harness {
  store: StoreApi<EngineState>;
  sources: Map<string, LineSource>;
}

function createHarness(scenario: Scenario, historyLines: (sessionID: string) => number): Harness {
  const store = createStore<EngineState>()(() => scenario.state);
  const sources = new Map<string, LineSource>();
  for (const sessionID of scenario.runningSessions) {
    const source = new LineSource();
    for (let i = historyLines(sessionID); i > 0; i -= 1) source.push(agentLine());
    sources.set(sessionID, source);
  }
  return { store, sources };
}

interface Mounted {
  terminal: FakeTerminal;
  keyboard: FakeKeyboard;
  renderCalledAt: number;
  unmount(): Promise<void>;
}

function mount(harness: Harness, clock: 'fixed' | 'real'): Mounted {
  const { store, sources } = harness;
  const engine: DashboardEngine = {
    getState: store.getState,
    subscribe: (listener) => store.subscribe(listener),
    onEvent: () => () => {},
    enqueue: () => {},
    refresh: () => {},
    schedulerStatus: () => ({
      active: sources.size,
      queued: store.getState().dispatchQueue.length,
      maxConcurrentAgents: 5,
    }),
    getWorkItemBody: async () => BODY,
    getRevisionFiles: async () => FILES,
    getAgentStream: (sessionID) => sources.get(sessionID)?.subscribe() ?? null,
  };
  const streams = createStreamBuffers(engine);
  const deps: DashboardDeps = {
    engine,
    streams,
    getReviewHistory: async () => REVIEWS,
    readTextFile: async () => CHECKS_LOG,
    repositoryLabel: 'acme/widgets',
    logFilePath: '.flotilla/logs/flotilla.log',
    start: async () => {},
    stop: async () => {},
    forceExit: () => {},
    now: clock === 'fixed' ? () => T0 : Date.now,
  };
  const terminal = new FakeTerminal();
  const keyboard = new FakeKeyboard();
  const renderCalledAt = performance.now();
  // React's Profiler is opt-in: in the development build it puts every fiber in profile mode, which adds
  // timing work and ~3,000 performance.measure entries a second to the process-wide buffer.
  const app = createElement(DashboardApp, { deps });
  const tree = PROFILE_REACT
    ? createElement(
        Profiler,
        {
          id: 'dashboard',
          onRender: (_id: string, _phase: string, actualDuration: number) => {
            probe.reactCommits.push(actualDuration);
          },
        },
        app,
      )
    : app;
  // As runDashboard renders it (patchConsole off: nothing else writes here).
  const instance = render(tree, {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: keyboard as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 20,
    onRender: ({ renderTime }) => probe.inkRenderTimes.push(renderTime),
  });
  return {
    terminal,
    keyboard,
    renderCalledAt,
    async unmount() {
      const exited = instance.waitUntilExit().catch(() => {});
      instance.unmount();
      streams.close();
      await exited;
    },
  };
}

const hasList = (text: string) => text.includes('NEEDS YOU') && text.includes('BACKLOG');
const needsYouCount = (text: string): number | null => {
  const match = /NEEDS YOU \((?:\d+-\d+\/)?(\d+)\)/.exec(text);
  return match ? Number(match[1]) : null;
};

/** Moves the selection down to the row of `itemID` (one key press per row, as a user would). */
async function selectItem(mounted: Mounted, state: EngineState, itemID: string): Promise<void> {
  const order = buildWorkItemSections(state).flatMap((section) => section.rows.map((row) => row.item.id));
  const target = order.indexOf(itemID);
  for (let i = 0; i < target; i += 1) {
    mounted.keyboard.press(KEYS.down);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sleep(150);
}

function setItemStatus(store: StoreApi<EngineState>, id: string, status: WorkItemStatus): void {
  const state = store.getState();
  const item = state.workItems[id]!;
  store.setState({ ...state, workItems: { ...state.workItems, [id]: { ...item, status } } }, true);
}

// ─── 0. the view model alone ────────────────────────────────────────────────────────────────────────────

function benchViewModel(scenario: Scenario) {
  const { state } = scenario;
  const bodyHeight = ROWS - 3;
  const detailWidth = COLUMNS - 72 - 1;
  // Up to `iterations` calls or one second, after a short warm-up.
  const timeIt = (fn: () => unknown, iterations: number) => {
    for (let i = 0; i < 20; i += 1) fn();
    const samples: number[] = [];
    const deadline = performance.now() + 1_000;
    while (samples.length < iterations && performance.now() < deadline) {
      const start = performance.now();
      fn();
      samples.push(performance.now() - start);
    }
    return stats(samples);
  };
  const sections = buildWorkItemSections(state);
  const first = sections[0]!.rows[0]!;
  const detail = buildDetailContent({
    row: first,
    state,
    body: { status: 'ok', value: BODY },
    files: { status: 'ok', value: FILES },
    reviews: { status: 'ok', value: REVIEWS },
    checksLog: null,
    notes: null,
    stream: null,
    now: T0,
  });
  const viewModel = timeIt(() => {
    const built = buildWorkItemSections(state);
    buildListLayout(built, first.item.id, bodyHeight, {});
    buildViewport(detail, detailWidth, bodyHeight - 1, 0);
  }, 1000);
  const sectionsOnly = timeIt(() => buildWorkItemSections(state), 1000);

  const runningRow = sections.flatMap((s) => s.rows).find((row) => row.latestRun?.status === 'running')!;
  const lines = Array.from({ length: LONG_STREAM_LINES }, () => agentLine());
  const long = buildDetailContent({
    row: runningRow,
    state,
    body: { status: 'ok', value: BODY },
    files: null,
    reviews: null,
    checksLog: null,
    notes: null,
    stream: { sessionID: 'x', lines, dropped: 0, ended: false },
    now: T0,
  });
  const viewportEnd = timeIt(() => buildViewport(long, detailWidth, bodyHeight - 1, null), 1000);
  const viewportMiddle = timeIt(() => buildViewport(long, detailWidth, bodyHeight - 1, 5_000), 1000);
  return { viewModel, sectionsOnly, viewportEnd, viewportMiddle };
}

// ─── 1. first render ────────────────────────────────────────────────────────────────────────────────────

async function benchFirstRender(scenario: Scenario) {
  const toList: number[] = [];
  const toFirstFrame: number[] = [];
  const cpu: number[] = [];
  const bytes: number[] = [];
  for (let i = 0; i < MOUNTS + 2; i += 1) {
    const harness = createHarness(scenario, () => 200);
    const cpuStart = process.cpuUsage();
    const mounted = mount(harness, 'real');
    const listFrame = await mounted.terminal.waitFor(hasList);
    const cpuUsed = cpuMs(process.cpuUsage(cpuStart));
    if (i >= 2) {
      // the first two mounts warm up the JIT
      toFirstFrame.push((mounted.terminal.firstFrameAt ?? Number.NaN) - mounted.renderCalledAt);
      toList.push(listFrame.at - mounted.renderCalledAt);
      cpu.push(cpuUsed);
      bytes.push(mounted.terminal.bytes);
    }
    await mounted.unmount();
  }
  return {
    toFirstFrame: stats(toFirstFrame),
    toList: stats(toList),
    cpu: stats(cpu),
    bytes: stats(bytes),
  };
}

// ─── 2. re-render after one state change ────────────────────────────────────────────────────────────────

async function benchRerender(scenario: Scenario) {
  const harness = createHarness(scenario, () => 200);
  const mounted = mount(harness, 'fixed'); // a fixed clock: only the state change produces a new frame
  await mounted.terminal.waitFor(hasList);
  await sleep(300); // the detail pane's data arrives
  const { store } = harness;
  const baseCount = needsYouCount(mounted.terminal.lastFrame)!;
  const ids = scenario.backlogIDs.slice(0, CHANGES);

  // a) changes 60–90 ms apart: both throttles are open, so this is the whole render pipeline's cost.
  resetProbe();
  let frames = mounted.terminal.frames;
  let bytes = mounted.terminal.bytes;
  let cpuStart = process.cpuUsage();
  let started = performance.now();
  const spaced: Promise<number>[] = [];
  for (const [k, id] of ids.entries()) {
    const expected = baseCount + k + 1;
    const at = performance.now();
    const frame = mounted.terminal.waitFor((text) => (needsYouCount(text) ?? 0) >= expected);
    setItemStatus(store, id, 'blocked');
    spaced.push(frame.then((f) => f.at - at));
    await sleep(60 + random() * 30);
  }
  const spacedLatency = await Promise.all(spaced);
  const spacedElapsed = performance.now() - started;
  const spacedResult = {
    latency: stats(spacedLatency),
    inkRenderTime: stats(probe.inkRenderTimes),
    reactCommit: stats(probe.reactCommits),
    frames: mounted.terminal.frames - frames,
    cpuPerChange: cpuMs(process.cpuUsage(cpuStart)) / ids.length,
    bytesPerFrame: (mounted.terminal.bytes - bytes) / Math.max(1, mounted.terminal.frames - frames),
    elapsed: spacedElapsed,
  };
  await sleep(200);

  // b) bursts: changes 0–40 ms apart, so most wait for the 50 ms throttle of the app and of Ink.
  resetProbe();
  frames = mounted.terminal.frames;
  bytes = mounted.terminal.bytes;
  cpuStart = process.cpuUsage();
  started = performance.now();
  const top = needsYouCount(mounted.terminal.lastFrame)!;
  const burst: Promise<number>[] = [];
  for (const [k, id] of ids.entries()) {
    const expected = top - k - 1;
    const at = performance.now();
    const frame = mounted.terminal.waitFor((text) => (needsYouCount(text) ?? Infinity) <= expected);
    setItemStatus(store, id, 'pending');
    burst.push(frame.then((f) => f.at - at));
    await sleep(random() * 40);
  }
  const burstLatency = await Promise.all(burst);
  const burstElapsed = performance.now() - started;
  const burstResult = {
    latency: stats(burstLatency),
    inkRenderTime: stats(probe.inkRenderTimes),
    reactCommit: stats(probe.reactCommits),
    frames: mounted.terminal.frames - frames,
    fps: ((mounted.terminal.frames - frames) / burstElapsed) * 1000,
    cpuPerChange: cpuMs(process.cpuUsage(cpuStart)) / ids.length,
    bytesPerFrame: (mounted.terminal.bytes - bytes) / Math.max(1, mounted.terminal.frames - frames),
    elapsed: burstElapsed,
  };
  await mounted.unmount();
  return { spaced: spacedResult, burst: burstResult };
}

// ─── 3. sustained load ──────────────────────────────────────────────────────────────────────────────────

async function benchSustained(scenario: Scenario) {
  const harness = createHarness(scenario, () => 200);
  const mounted = mount(harness, 'real');
  await mounted.terminal.waitFor(hasList);
  const followed = scenario.state.agentRuns[scenario.runningSessions[0]!]!;
  await selectItem(mounted, scenario.state, followed.role === 'planner' ? '' : followed.workItemID);
  if (!mounted.terminal.lastFrame.includes('live')) throw new Error('the selected item shows no live stream');
  await sleep(300);

  const { store, sources } = harness;
  const statuses: WorkItemStatus[] = ['pending', 'ready', 'blocked', 'needs-refinement', 'approved'];
  const delay = monitorEventLoopDelay({ resolution: 10 });
  resetProbe();
  const frames = mounted.terminal.frames;
  const bytes = mounted.terminal.bytes;
  let peakRSS = process.memoryUsage().rss;
  let linesPushed = 0;
  let changes = 0;
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  delay.enable();
  const pushTimer = setInterval(() => {
    for (const source of sources.values()) source.push(agentLine());
    linesPushed += sources.size;
  }, 1000 / LINES_PER_SECOND);
  const changeTimer = setInterval(() => {
    changes += 1;
    if (changes % 5 === 0) {
      // a revision's checks change
      const state = store.getState();
      const revisionID = pick(scenario.revisionIDs);
      const revision = state.revisions[revisionID]!;
      const pipeline = buildPipeline(pick(['pending', 'success', 'failure'] as const));
      store.setState(
        { ...state, revisions: { ...state.revisions, [revisionID]: { ...revision, pipeline } } },
        true,
      );
    } else {
      setItemStatus(store, pick(scenario.churnIDs), pick(statuses));
    }
  }, 1000 / CHANGES_PER_SECOND);
  const rssTimer = setInterval(() => {
    peakRSS = Math.max(peakRSS, process.memoryUsage().rss);
  }, 100);
  await sleep(SUSTAINED_MS);
  clearInterval(pushTimer);
  clearInterval(changeTimer);
  clearInterval(rssTimer);
  delay.disable();
  const elapsed = performance.now() - started;
  const seconds = elapsed / 1000;
  const cpu = cpuMs(process.cpuUsage(cpuStart));
  const memory = process.memoryUsage();
  const result = {
    seconds,
    linesPushed,
    changes,
    fps: (mounted.terminal.frames - frames) / seconds,
    inkRendersPerSecond: probe.inkRenderTimes.length / seconds,
    reactCommitsPerSecond: probe.reactCommits.length / seconds,
    cpuMsPerSecond: cpu / seconds,
    bytesPerSecond: (mounted.terminal.bytes - bytes) / seconds,
    inkRenderTime: stats(probe.inkRenderTimes),
    reactCommit: stats(probe.reactCommits),
    maxLoopLagMs: delay.max / 1e6,
    p99LoopLagMs: delay.percentile(99) / 1e6,
    heapUsedMiB: MiB(memory.heapUsed),
    rssMiB: MiB(memory.rss),
    peakRssMiB: MiB(Math.max(peakRSS, memory.rss)),
  };
  await mounted.unmount();
  return result;
}

/**
 * Renders that change nothing on screen: the selection is on an item without a stream (the first row, an
 * approved item), first with nothing happening, then with the 5 streams pushing. Ink computes every frame
 * and writes only those whose output differs, so renders/s minus frames/s is work for nothing.
 */
async function benchInvisibleWork(scenario: Scenario) {
  const harness = createHarness(scenario, () => 200);
  const mounted = mount(harness, 'real');
  await mounted.terminal.waitFor(hasList);
  await sleep(300);
  const window = async (millis: number, push: boolean) => {
    resetProbe();
    const frames = mounted.terminal.frames;
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const timer = push
      ? setInterval(() => {
          for (const source of harness.sources.values()) source.push(agentLine());
        }, 1000 / LINES_PER_SECOND)
      : null;
    await sleep(millis);
    if (timer !== null) clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    return {
      inkRendersPerSecond: probe.inkRenderTimes.length / seconds,
      framesPerSecond: (mounted.terminal.frames - frames) / seconds,
      cpuMsPerSecond: cpuMs(process.cpuUsage(cpuStart)) / seconds,
    };
  };
  const quiet = await window(3_000, false);
  const streaming = await window(5_000, true);
  await mounted.unmount();
  return { quiet, streaming };
}

// ─── 4. a 10,000-line stream in the detail pane ─────────────────────────────────────────────────────────

async function benchLongStream(scenario: Scenario) {
  const longSession = scenario.runningSessions[0]!;
  const harness = createHarness(scenario, (sessionID) =>
    sessionID === longSession ? LONG_STREAM_LINES : 200,
  );
  const mounted = mount(harness, 'fixed');
  await mounted.terminal.waitFor(hasList);
  const run = scenario.state.agentRuns[longSession]!;
  await selectItem(mounted, scenario.state, run.role === 'planner' ? '' : run.workItemID);
  await sleep(300);
  if (!mounted.terminal.lastFrame.includes('live')) throw new Error('the selected item shows no live stream');
  const source = harness.sources.get(longSession)!;

  // a) following the end: a new line, 150 ms apart; the buffers notify 50 ms after a chunk by design.
  resetProbe();
  const follow: number[] = [];
  for (let k = 0; k < 30; k += 1) {
    const marker = `marker-line-${k}-end`;
    const frame = mounted.terminal.waitFor((text) => text.includes(marker));
    const at = performance.now();
    source.push(`${agentLine()} ${marker}`);
    follow.push((await frame).at - at);
    await sleep(150);
  }
  const followInk = stats(probe.inkRenderTimes);
  const followReact = stats(probe.reactCommits);

  // b) scrolled to the middle: focus the pane, go to the top, page down to the middle, then page there.
  mounted.keyboard.press(KEYS.tab);
  await sleep(80);
  mounted.keyboard.press(KEYS.home);
  await sleep(80);
  const page = ROWS - 1 - 2 - 2;
  for (let top = 0; top < LONG_STREAM_LINES / 2; top += page) {
    mounted.keyboard.press(KEYS.pageDown);
    await sleep(2);
  }
  await sleep(150);
  const paused = (text: string) => /paused at line (\d+)\//.exec(text)?.[1] ?? null;
  const middleLine = Number(paused(mounted.terminal.lastFrame));
  resetProbe();
  const scroll: number[] = [];
  for (let k = 0; k < 30; k += 1) {
    const before = paused(mounted.terminal.lastFrame);
    const frame = mounted.terminal.waitFor((text) => {
      const line = paused(text);
      return line !== null && line !== before;
    });
    const at = performance.now();
    mounted.keyboard.press(k % 2 === 0 ? KEYS.pageDown : KEYS.pageUp);
    scroll.push((await frame).at - at);
    await sleep(80);
  }
  const scrollInk = stats(probe.inkRenderTimes);
  const scrollReact = stats(probe.reactCommits);
  await mounted.unmount();
  return {
    follow: stats(follow),
    followInk,
    followReact,
    middleLine,
    scroll: stats(scroll),
    scrollInk,
    scrollReact,
  };
}

// ─── main ───────────────────────────────────────────────────────────────────────────────────────────────

const builtScenario = buildScenario();
const sections = buildWorkItemSections(builtScenario.state);
const runCount = Object.keys(builtScenario.state.agentRuns).length;
const describeState = `${Object.keys(builtScenario.state.workItems).length} items (${sections.map((s) => `${s.title} ${s.rows.length}`).join(', ')}), ${Object.keys(builtScenario.state.revisions).length} revisions, ${runCount} runs (5 running)`;
const reactBuild = process.env.NODE_ENV === 'production' ? 'production' : 'development';
progress(`state: ${describeState}; React ${reactBuild} build`);

progress('view model');
const viewModel = benchViewModel(builtScenario);
progress(`first render × ${MOUNTS}`);
const first = await benchFirstRender(builtScenario);
progress(`re-render × ${CHANGES} spaced + ${CHANGES} in bursts`);
const rerender = await benchRerender(builtScenario);
progress(`sustained load ${SUSTAINED_MS / 1000} s`);
const sustained = await benchSustained(builtScenario);
progress('renders that change nothing (3 s quiet, 5 s with streams)');
const invisible = await benchInvisibleWork(builtScenario);
progress('10,000-line stream');
const long = await benchLongStream(builtScenario);

const profilerNote =
  reactBuild === 'production'
    ? ' (Profiler inactive in production builds)'
    : PROFILE_REACT
      ? ''
      : ' (REACT_PROFILER=1 measures it)';
const rows: Array<[string, string]> = [
  ['state', describeState],
  ['terminal / React', `${COLUMNS}×${ROWS} TTY, Ink maxFps 20, React ${reactBuild} build`],
  ['view model (sections+layout+viewport)', fmtStats(viewModel.viewModel)],
  ['  buildWorkItemSections alone', fmtStats(viewModel.sectionsOnly)],
  ['  buildViewport 10k lines, end', fmtStats(viewModel.viewportEnd)],
  ['  buildViewport 10k lines, middle', fmtStats(viewModel.viewportMiddle)],
  ['1 first frame ("Starting…")', fmtStats(first.toFirstFrame)],
  ['1 first frame with the list', fmtStats(first.toList)],
  ['  CPU until the list frame', fmtStats(first.cpu)],
  ['2a change→frame, 60–90 ms apart', fmtStats(rerender.spaced.latency)],
  ['  React commit (Profiler actualDuration)', fmtStats(rerender.spaced.reactCommit) + profilerNote],
  ['  Ink output (onRender renderTime)', fmtStats(rerender.spaced.inkRenderTime)],
  [
    '  CPU per change / bytes per frame',
    `${rerender.spaced.cpuPerChange.toFixed(2)} ms / ${Math.round(rerender.spaced.bytesPerFrame)} B`,
  ],
  ['2b change→frame, 0–40 ms apart', fmtStats(rerender.burst.latency)],
  [
    '  frames / fps / CPU per change',
    `${rerender.burst.frames} frames for ${CHANGES} changes, ${rerender.burst.fps.toFixed(1)} fps, ${rerender.burst.cpuPerChange.toFixed(2)} ms`,
  ],
  [
    '3 sustained: frames/s / Ink renders/s',
    `${sustained.fps.toFixed(1)} / ${sustained.inkRendersPerSecond.toFixed(1)}`,
  ],
  [
    '  CPU / bytes written',
    `${sustained.cpuMsPerSecond.toFixed(0)} ms/s (${((sustained.cpuMsPerSecond / 1000) * 100).toFixed(1)}% of a core) / ${(sustained.bytesPerSecond / 1024).toFixed(1)} KiB/s`,
  ],
  [
    '  event-loop lag max / p99',
    `${sustained.maxLoopLagMs.toFixed(1)} ms / ${sustained.p99LoopLagMs.toFixed(1)} ms`,
  ],
  ['  React commit', fmtStats(sustained.reactCommit) + profilerNote],
  ['  Ink output', fmtStats(sustained.inkRenderTime)],
  [
    '  heap / RSS / peak RSS',
    `${sustained.heapUsedMiB} / ${sustained.rssMiB} / ${sustained.peakRssMiB} MiB (${sustained.linesPushed} lines, ${sustained.changes} changes)`,
  ],
  [
    '3b quiet, agents running: renders/s / frames/s / CPU',
    `${invisible.quiet.inkRendersPerSecond.toFixed(1)} / ${invisible.quiet.framesPerSecond.toFixed(1)} / ${invisible.quiet.cpuMsPerSecond.toFixed(0)} ms/s`,
  ],
  [
    '3c streams, none visible: renders/s / frames/s / CPU',
    `${invisible.streaming.inkRendersPerSecond.toFixed(1)} / ${invisible.streaming.framesPerSecond.toFixed(1)} / ${invisible.streaming.cpuMsPerSecond.toFixed(0)} ms/s`,
  ],
  ['4a 10k stream, new line→frame (following)', `${fmtStats(long.follow)} — includes the 50 ms notify`],
  ['  React commit / Ink output', `${ms(long.followReact.median)} / ${ms(long.followInk.median)} median`],
  [`4b 10k stream, PgUp/PgDn→frame @ line ${long.middleLine}`, fmtStats(long.scroll)],
  ['  React commit / Ink output', `${ms(long.scrollReact.median)} / ${ms(long.scrollInk.median)} median`],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.log('tui-render');
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
console.log(
  JSON.stringify({
    bench: 'tui-render',
    react: reactBuild,
    viewModelMs: roundStats(viewModel.viewModel),
    firstRender: {
      firstFrameMs: roundStats(first.toFirstFrame),
      listFrameMs: roundStats(first.toList),
      cpuMs: roundStats(first.cpu),
    },
    rerender: {
      spacedMs: roundStats(rerender.spaced.latency),
      spacedReactCommitMs: roundStats(rerender.spaced.reactCommit),
      spacedInkRenderMs: roundStats(rerender.spaced.inkRenderTime),
      spacedCpuPerChangeMs: round(rerender.spaced.cpuPerChange),
      bytesPerFrame: Math.round(rerender.spaced.bytesPerFrame),
      burstMs: roundStats(rerender.burst.latency),
      burstFps: round(rerender.burst.fps, 1),
    },
    sustained: {
      fps: round(sustained.fps, 1),
      inkRendersPerSecond: round(sustained.inkRendersPerSecond, 1),
      reactCommitsPerSecond: round(sustained.reactCommitsPerSecond, 1),
      cpuMsPerSecond: round(sustained.cpuMsPerSecond, 1),
      bytesPerSecond: Math.round(sustained.bytesPerSecond),
      maxLoopLagMs: round(sustained.maxLoopLagMs, 1),
      p99LoopLagMs: round(sustained.p99LoopLagMs, 1),
      heapUsedMiB: sustained.heapUsedMiB,
      rssMiB: sustained.rssMiB,
      peakRssMiB: sustained.peakRssMiB,
    },
    invisibleWork: {
      quiet: {
        rendersPerSecond: round(invisible.quiet.inkRendersPerSecond, 1),
        framesPerSecond: round(invisible.quiet.framesPerSecond, 1),
        cpuMsPerSecond: round(invisible.quiet.cpuMsPerSecond, 1),
      },
      streamsNotVisible: {
        rendersPerSecond: round(invisible.streaming.inkRendersPerSecond, 1),
        framesPerSecond: round(invisible.streaming.framesPerSecond, 1),
        cpuMsPerSecond: round(invisible.streaming.cpuMsPerSecond, 1),
      },
    },
    longStream: {
      followMs: roundStats(long.follow),
      scrollMiddleMs: roundStats(long.scroll),
      middleLine: long.middleLine,
      viewportEndMs: roundStats(viewModel.viewportEnd),
      viewportMiddleMs: roundStats(viewModel.viewportMiddle),
    },
  }),
);
