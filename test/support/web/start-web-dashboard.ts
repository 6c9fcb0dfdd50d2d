import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createApiApp } from '../../../src/api/create-api-app.ts';
import { createEventHub } from '../../../src/api/create-event-hub.ts';
import { parseListenAddress } from '../../../src/api/parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from '../../../src/api/start-api-server.ts';
import { watchTrackerChanges } from '../../../src/api/watch-tracker-changes.ts';
import { type CliContext, openCliContext } from '../../../src/cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../../../src/cli/support/require-local-tracker.ts';
import type { SqliteTracker } from '../../../src/storage/index.ts';
import { createTempGitRepo, type TempGitRepo } from '../shared/create-temp-git-repo.ts';
import { launchChromium } from './launch-chromium.ts';

/** What a seed gets to fill the tracker with before the server starts. */
export interface WebDashboardSeed {
  repo: TempGitRepo;
  context: CliContext;
  tracker: SqliteTracker;
}

export interface WebDashboard extends WebDashboardSeed {
  server: RunningApiServer;
  browser: Browser;
  /** A 1440×900 page, opened at the dashboard. */
  page: Page;
  /** Where the test's screenshots go: $FLOTILLA_ARTIFACTS_DIR/web-dashboard, else a temporary directory. */
  shots: string;
  /** Closes the browser, the server and the tracker; removes the repository and the built web root. */
  close(): Promise<void>;
}

/**
 * The web dashboard as `flotilla serve` runs it, in a real headless Chromium: a temp repository (one commit)
 * whose tracker `seed` fills, the web bundle built into a temp directory, `createApiApp` over the tracker
 * with its change watch (changes made outside the page become events; every action is by `Ada`), on
 * 127.0.0.1, and a page open at it. What it started before failing, it takes down.
 */
export async function startWebDashboard(
  seed: (fixture: WebDashboardSeed) => Promise<void> | void,
): Promise<WebDashboard> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const repo = await createTempGitRepo();
    cleanups.push(() => repo.cleanup());
    await repo.commit('initial', { 'README.md': '# sample\n' });
    const context = await openCliContext(repo.root);
    cleanups.push(() => context.close());
    const tracker = await requireLocalTracker(context, 'serve');
    await seed({ repo, context, tracker });
    const webRoot = mkdtempSync(join(tmpdir(), 'flotilla-web-e2e-'));
    cleanups.push(() => rmSync(webRoot, { recursive: true, force: true }));
    execFileSync(process.execPath, ['scripts/build-web.js', webRoot]);
    const shots = join(
      process.env.FLOTILLA_ARTIFACTS_DIR ?? mkdtempSync(join(tmpdir(), 'flotilla-shots-')),
      'web-dashboard',
    );
    mkdirSync(shots, { recursive: true });
    cleanups.push(() => {
      process.stdout.write(`web dashboard screenshots: ${shots}\n`);
    });
    const events = createEventHub();
    const watch = watchTrackerChanges(tracker, context.history, events, 100);
    cleanups.push(() => watch.stop());
    const app = createApiApp({
      config: context.config,
      tracker,
      provider: await context.provider.open(),
      history: context.history,
      paths: context.paths,
      events,
      readAuthor: async () => 'Ada',
      repoRoot: repo.root,
      webRoot,
    });
    const server = await startApiServer(app, parseListenAddress('127.0.0.1:0'), { tokenSet: false });
    cleanups.push(() => server.close());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url);
    return { repo, context, tracker, server, browser, page, shots, close };
  } catch (error) {
    await close();
    throw error;
  }
}
