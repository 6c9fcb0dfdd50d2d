/**
 * Web dashboard benchmark (web/README.md): the real page, built by scripts/build-web.js, in Debian's headless
 * Chromium (playwright-core), served by `createApiApp` over a temp repository's SQLite tracker holding
 * ITEMS work items (every column; 40 closed). Measures:
 *   - time to first render: navigation start → every card on the board (page clock), RUNS fresh pages;
 *   - CPU per second of updates: LIVE items change status every second each (in-progress ↔ review) for
 *     SECONDS s, each change published on the hub as `flotilla run --serve`'s engine would; the renderer's
 *     main-thread busy time (CDP Performance.getMetrics TaskDuration) and the server's process CPU per
 *     wall second, against the same window idle.
 * Prints a table and a JSON line. Run: npm run bench:web (ITEMS, LIVE, SECONDS, RUNS override).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { createApiApp } from '../../src/api/create-api-app.ts';
import { createEventHub } from '../../src/api/create-event-hub.ts';
import { parseListenAddress } from '../../src/api/parse-listen-address.ts';
import { startApiServer } from '../../src/api/start-api-server.ts';
import { openCliContext } from '../../src/cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../../src/cli/support/require-local-tracker.ts';
import { WORK_ITEM_PRIORITIES, type WorkItemStatus } from '../../src/domain/index.ts';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { launchChromium } from '../../test/support/web/launch-chromium.ts';

const ITEMS = Number(process.env.ITEMS ?? 500);
const LIVE = Number(process.env.LIVE ?? 10);
const SECONDS = Number(process.env.SECONDS ?? 10);
const RUNS = Number(process.env.RUNS ?? 5);
const CLOSED = 40;
const OPEN_STATUSES: WorkItemStatus[] = [
  'pending',
  'ready',
  'in-progress',
  'review',
  'waiting-for-input',
  'needs-refinement',
  'blocked',
  'approved',
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const repo = await createTempGitRepo();
await repo.commit('initial', { 'README.md': '# bench\n' });
const webRoot = mkdtempSync(join(tmpdir(), 'flotilla-web-bench-'));
execFileSync(process.execPath, ['scripts/build-web.js', webRoot]);
const context = await openCliContext(repo.root);
const tracker = await requireLocalTracker(context, 'serve');
const items = tracker.workItems;
for (let index = 0; index < ITEMS; index++) {
  const { id } = items.createWorkItem({
    title: `Item ${index + 1}: ${'improve the thing '.repeat(1 + (index % 3))}`.trim(),
    body: `Body of item ${index + 1}`,
    labels: [`priority:${WORK_ITEM_PRIORITIES[index % 3]}`],
    blockedBy: [],
  });
  const status = index < CLOSED ? 'closed' : OPEN_STATUSES[index % OPEN_STATUSES.length]!;
  if (status !== 'pending') items.transitionStatus(id, status);
}
const live = items
  .listWorkItems({ includeClosed: false })
  .filter((item) => item.status === 'in-progress' || item.status === 'review')
  .slice(0, LIVE)
  .map((item) => item.id);
const shownCards = ITEMS - CLOSED + Math.min(CLOSED, 50);

const events = createEventHub();
const app = createApiApp({
  config: context.config,
  tracker,
  provider: await context.provider.open(),
  history: context.history,
  paths: context.paths,
  events,
  readAuthor: async () => 'bench',
  repoRoot: repo.root,
  webRoot,
});
const server = await startApiServer(app, parseListenAddress('127.0.0.1:0'), { tokenSet: false });
const browser = await launchChromium();

async function firstRender(): Promise<{ ms: number; page: Page }> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(server.url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    // Runs in the page (this project's types have no DOM).
    (count) =>
      (
        globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }
      ).document.querySelectorAll('[data-item]').length >= count
        ? performance.now()
        : false,
    shownCards,
    { polling: 'raf', timeout: 60_000 },
  );
  return { ms: (await handle.jsonValue()) as number, page };
}

const BREAKDOWN = ['ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'] as const;

async function busy(cdp: CDPSession): Promise<Record<'TaskDuration' | (typeof BREAKDOWN)[number], number>> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const read = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return {
    TaskDuration: read('TaskDuration'),
    ScriptDuration: read('ScriptDuration'),
    LayoutDuration: read('LayoutDuration'),
    RecalcStyleDuration: read('RecalcStyleDuration'),
  };
}

async function measure(page: Page, cdp: CDPSession, update: boolean) {
  const startBusy = await busy(cdp);
  const startCpu = process.cpuUsage();
  const started = performance.now();
  let changes = 0;
  const timer = update
    ? setInterval(() => {
        // Spread over the second: one live item every 1000/LIVE ms.
        const id = live[changes % live.length]!;
        const status = items.getWorkItem(id)?.status === 'review' ? 'in-progress' : 'review';
        items.transitionStatus(id, status);
        events.publish('work-item.changed', { workItemID: id, status });
        changes += 1;
      }, 1000 / LIVE)
    : null;
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  if (timer !== null) clearInterval(timer);
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(startCpu);
  const endBusy = await busy(cdp);
  const pageBusy = endBusy.TaskDuration - startBusy.TaskDuration;
  const share = (name: (typeof BREAKDOWN)[number]) => (endBusy[name] - startBusy[name]) / wall;
  // The page settles on the last state: the moved cards are where the tracker says.
  const last = live[(changes - 1 + live.length) % live.length];
  if (update && last !== undefined) {
    const status = items.getWorkItem(last)?.status;
    await page.waitForSelector(`[data-item="${last}"][data-status="${status}"]`, { timeout: 10_000 });
  }
  return {
    changesPerSecond: changes / wall,
    pageCpuPerSecond: pageBusy / wall,
    pageScriptPerSecond: share('ScriptDuration'),
    pageLayoutAndStylePerSecond: share('LayoutDuration') + share('RecalcStyleDuration'),
    serverCpuPerSecond: (cpu.user + cpu.system) / 1e6 / wall,
  };
}

const renders: number[] = [];
let kept: Page | null = null;
for (let run = 0; run < RUNS; run++) {
  const { ms, page } = await firstRender();
  renders.push(ms);
  if (run < RUNS - 1) await page.close();
  else kept = page;
}
const keptPage = kept!;
const session = await keptPage.context().newCDPSession(keptPage);
await session.send('Performance.enable');
const idle = await measure(keptPage, session, false);
const updating = await measure(keptPage, session, true);

await browser.close();
await server.close();
await context.close();
await repo.cleanup();
rmSync(webRoot, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(0)} ms`;
const pct = (value: number) => `${(value * 100).toFixed(1)}% of a core`;
process.stdout.write(
  [
    `web dashboard · ${ITEMS} items (${shownCards} cards) · ${LIVE} live · ${SECONDS} s windows · Chromium headless`,
    `first render (navigation → all cards)  median ${ms(median(renders))}  min ${ms(Math.min(...renders))}  max ${ms(Math.max(...renders))}  (${RUNS} pages)`,
    `idle                                   page ${pct(idle.pageCpuPerSecond)}  server ${pct(idle.serverCpuPerSecond)}`,
    `${updating.changesPerSecond.toFixed(1)} changes/s                        page ${pct(updating.pageCpuPerSecond)} (script ${pct(updating.pageScriptPerSecond)}, layout+style ${pct(updating.pageLayoutAndStylePerSecond)})  server ${pct(updating.serverCpuPerSecond)}`,
    JSON.stringify({
      items: ITEMS,
      cards: shownCards,
      live: LIVE,
      seconds: SECONDS,
      firstRenderMs: renders,
      idle,
      updating,
    }),
    '',
  ].join('\n'),
);
