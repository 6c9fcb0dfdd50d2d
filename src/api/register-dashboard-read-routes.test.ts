import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../test/support/cli/with-local-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { type CliContext, openCliContext } from '../cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../cli/support/require-local-tracker.ts';
import { resolveFlotillaPaths } from '../config/index.ts';
import type { EngineEvent } from '../domain/index.ts';
import { applyStateUpdate } from '../engine/state-store/apply-state-update.ts';
import { buildInitialEngineState } from '../engine/state-store/engine-state.ts';
import { buildAddFilePatch } from '../runtimes/scripted/build-scripted-results.ts';
import type { SqliteTracker } from '../storage/index.ts';
import { createApiApp } from './create-api-app.ts';
import { createEventHub, type EventHub } from './create-event-hub.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';
import { watchTrackerChanges } from './watch-tracker-changes.ts';

const WITH_LOG = 'aaaa1111-0000-4000-8000-000000000001';
const WITHOUT_LOG = 'bbbb2222-0000-4000-8000-000000000002';

let repo: TempGitRepo;
let webRoot: string;
let context: CliContext;
let tracker: SqliteTracker;
let events: EventHub;
let server: RunningApiServer;
let revised: { id: string; headSHA: string };
let plain: string;

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  revised = await withLocalProvider(repo.root, { checksCommand: null }, (provider) =>
    createItemWithRevision(provider, buildAddFilePatch('src/a.ts', 'export const a = 1;\n'), 'review'),
  );
  webRoot = mkdtempSync(join(tmpdir(), 'flotilla-web-'));
  execFileSync(process.execPath, ['scripts/build-web.js', webRoot]);
  context = await openCliContext(repo.root);
  tracker = await requireLocalTracker(context, 'serve');
  plain = tracker.workItems.createWorkItem({ title: 'No revision', body: '', labels: [], blockedBy: [] }).id;
  const sessions = resolveFlotillaPaths(repo.root).sessionsDir;
  mkdirSync(sessions, { recursive: true });
  const log = join(sessions, 'aaaa1111.log');
  const toolOutput = Array.from({ length: 40 }, (_, index) => `  output line ${index}`).join('\n');
  writeFileSync(
    log,
    `=== implementor session ===\n[10:00:00] USER [tool_result] ls\n${toolOutput}\n[10:00:01] ASSISTANT wrote src/a.ts\n`,
  );
  const recorded: EngineEvent[] = [
    {
      type: 'implementorRequested',
      sessionID: WITH_LOG,
      workItemID: '1',
      branchName: 'flotilla/1',
      at: 1_000,
    },
    { type: 'implementorStarted', sessionID: WITH_LOG, logFilePath: log, at: 1_100, runtime: 'claude' },
    ...(['decision', 'question'] as const).map(
      (kind, index): EngineEvent => ({
        type: 'agentNoted',
        sessionID: WITH_LOG,
        role: 'implementor',
        workItemID: revised.id,
        runtime: 'claude',
        note:
          kind === 'decision'
            ? { kind, decision: 'greet returns a string', why: 'simplest' }
            : { kind, text: 'Should greet trim the name?' },
        at: 1_200 + index,
      }),
    ),
    {
      type: 'implementorRequested',
      sessionID: WITHOUT_LOG,
      workItemID: '3',
      branchName: 'flotilla/3',
      at: 2_000,
    },
  ];
  let state = buildInitialEngineState();
  for (const event of recorded) {
    state = applyStateUpdate(state, event).state;
    context.history.record(event, state);
  }
  events = createEventHub();
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
  server = await startApiServer(app, parseListenAddress('127.0.0.1:0'), { tokenSet: false });
});

afterAll(async () => {
  await server.close();
  await context.close();
  await repo.cleanup();
  rmSync(webRoot, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${server.url}${path}`);
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error;

describe('GET /api/runs/:session/transcript', () => {
  it('returns the run and its transcript, tool output shortened unless full=1 (as `flotilla logs`)', async () => {
    const response = await get(`/api/runs/${WITH_LOG}/transcript`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { run: { sessionID: string; role: string }; text: string };
    expect(body.run).toMatchObject({ sessionID: WITH_LOG, role: 'implementor' });
    expect(body.text).toContain('wrote src/a.ts');
    expect(body.text).not.toContain('output line 39');
    const full = (await (await get(`/api/runs/${WITH_LOG}/transcript?full=1`)).json()) as { text: string };
    expect(full.text).toContain('output line 39');
  });

  it('is 404 for an unknown session (no prefixes), 409 for a run without a transcript, 400 for a bad flag', async () => {
    const unknown = await get('/api/runs/aaaa/transcript');
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('not_found');
    const none = await get(`/api/runs/${WITHOUT_LOG}/transcript`);
    expect(none.status).toBe(409);
    expect((await errorOf(none)).code).toBe('conflict');
    expect((await get(`/api/runs/${WITH_LOG}/transcript?full=yes`)).status).toBe(400);
  });
});

describe('GET /api/work-items/:id/diff', () => {
  it("returns the revision's files and the terminal dashboard's coloured diff lines", async () => {
    const response = await get(`/api/work-items/${revised.id}/diff`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      revision: { headSHA: string; state: string };
      files: { path: string; status: string }[];
      lines: { text: string; color?: string; bold?: boolean }[];
    };
    expect(body.revision).toMatchObject({ headSHA: revised.headSHA, state: 'open' });
    expect(body.files.map((file) => [file.path, file.status])).toEqual([['src/a.ts', 'added']]);
    expect(body.lines).toContainEqual({ text: 'src/a.ts (added)', bold: true });
    expect(body.lines).toContainEqual({ text: '+export const a = 1;', color: 'green' });
  });

  it('is 409 without a revision (or without a repository), 404 for an unknown item, 400 for a bad id', async () => {
    const none = await get(`/api/work-items/${plain}/diff`);
    expect(none.status).toBe(409);
    expect((await errorOf(none)).code).toBe('conflict');
    expect((await get('/api/work-items/99/diff')).status).toBe(404);
    const bad = await get('/api/work-items/x/diff');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe('invalid_request');
    const noRepo = createApiApp({
      config: context.config,
      tracker,
      provider: await context.provider.open(),
      history: context.history,
      paths: context.paths,
      events,
      readAuthor: async () => 'Ada',
    });
    expect((await noRepo.request(`/api/work-items/${revised.id}/diff`)).status).toBe(409);
  });
});

describe('GET /api/work-items/:id', () => {
  it('carries the task context and the decisions and questions agents logged, as `work show --json` does', async () => {
    const body = (await (await get(`/api/work-items/${revised.id}`)).json()) as Record<string, unknown>;
    expect(body.taskContext).toEqual([]);
    expect(body.decisions).toEqual([
      expect.objectContaining({ kind: 'decision', text: 'greet returns a string', why: 'simplest' }),
    ]);
    expect(body.questions).toEqual([
      expect.objectContaining({ kind: 'question', text: 'Should greet trim the name?', why: null }),
    ]);
  });
});

describe('the web dashboard files', () => {
  it('serves the page at / and its assets with their content types and a strict CSP', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('/assets/app.js');
    const script = await get('/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves nothing outside its folder and says when the dashboard is not built', async () => {
    for (const path of ['/assets/..%2Fpackage.json', '/assets/.env', '/assets/nope.js', '/assets/a.exe']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
    }
    const unbuilt = createApiApp({
      config: context.config,
      tracker,
      provider: await context.provider.open(),
      history: context.history,
      paths: context.paths,
      events,
      readAuthor: async () => 'Ada',
      webRoot: join(webRoot, 'missing'),
    });
    const response = await unbuilt.request('/');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'npm run build',
    );
  });
});

describe('watchTrackerChanges', () => {
  it('publishes a change another process made to an item or a run, once', () => {
    const hub = createEventHub();
    const watch = watchTrackerChanges(tracker, context.history, hub, 60_000);
    try {
      watch.check();
      expect(hub.since(0)).toEqual([]);
      tracker.workItems.transitionStatus(plain, 'ready');
      watch.check();
      watch.check();
      expect(hub.since(0).map((event) => [event.type, event.data])).toEqual([
        ['work-item.changed', { workItemID: plain, status: 'ready' }],
      ]);
    } finally {
      watch.stop();
    }
  });
});
