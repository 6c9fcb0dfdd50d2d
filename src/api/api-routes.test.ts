import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../test/support/cli/with-local-provider.ts';
import { buildRevision } from '../../test/support/shared/builders/build-revision.ts';
import { buildWorkItem } from '../../test/support/shared/builders/build-work-item.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { type CliContext, openCliContext } from '../cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../cli/support/require-local-tracker.ts';
import type { EngineEvent } from '../domain/index.ts';
import { periodKeysOf } from '../engine/budget/budget-calendar.ts';
import { buildInitialEngineState, type EngineState } from '../engine/state-store/engine-state.ts';
import { buildAddFilePatch } from '../runtimes/scripted/build-scripted-results.ts';
import type { SqliteTracker } from '../storage/index.ts';
import { type ApiDeps, createApiApp } from './create-api-app.ts';
import { createEngineApiApp } from './create-engine-api-app.ts';
import { createEventHub } from './create-event-hub.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';

/**
 * Every route of the API: the OpenAPI document lists exactly the registered routes, every one needs the
 * bearer token when one is set, and the routes of the human's review (review, checks, spend per day,
 * status) and the engine actions with an engine answer as src/api/README.md says.
 */

let repo: TempGitRepo;
let context: CliContext;
let tracker: SqliteTracker;
let deps: ApiDeps;
let server: RunningApiServer;
let tokenServer: RunningApiServer;
const ids = { approve: '', rework: '', outside: '', plain: '' };
const TOKEN = 'route-token';

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  const paths = { logsDir: join(repo.root, '.flotilla', 'logs') };
  await withLocalProvider(repo.root, { checksCommand: null }, async (provider) => {
    const revise = (file: string) =>
      createItemWithRevision(provider, buildAddFilePatch(file, 'x\n'), 'review');
    ids.approve = (await revise('src/a.ts')).id;
    const rework = await revise('src/b.ts');
    ids.rework = rework.id;
    const outside = await revise('src/c.ts');
    ids.outside = outside.id;
    // Where the local checks runner writes its logs (the provider reads no other).
    mkdirSync(join(paths.logsDir, 'checks'), { recursive: true });
    const log = join(paths.logsDir, 'checks', 'checks-b.log');
    writeFileSync(log, 'line 1\nFAIL b.test.ts\n');
    provider.tracker.revisions.setPipeline(rework.revisionID, rework.headSHA, {
      status: 'failure',
      url: log,
      reason: 'npm test failed',
    });
    // A log path outside .flotilla/logs/ (a tampered database): never read.
    provider.tracker.revisions.setPipeline(outside.revisionID, outside.headSHA, {
      status: 'failure',
      url: join(repo.root, 'README.md'),
      reason: 'failed',
    });
  });
  context = await openCliContext(repo.root);
  tracker = await requireLocalTracker(context, 'serve');
  ids.plain = tracker.workItems.createWorkItem({
    title: 'No revision',
    body: '',
    labels: [],
    blockedBy: [],
  }).id;
  const { day, month } = periodKeysOf(Date.now(), context.config.budgets.timeZone);
  context.history.ledger.record({
    sessionID: 'spend-today',
    workItemID: ids.plain,
    role: 'implementor',
    runtime: 'claude',
    model: null,
    account: null,
    day,
    month,
    costUSD: 0.75,
    inputTokens: 1,
    outputTokens: 1,
    ended: true,
    budgetStop: null,
    requestedAt: 1,
    updatedAt: 1,
  });
  deps = {
    config: context.config,
    tracker,
    provider: await context.provider.open(),
    history: context.history,
    paths: context.paths,
    events: createEventHub(),
    readAuthor: async () => 'Ada',
    repoRoot: repo.root,
  };
  server = await startApiServer(createApiApp(deps), parseListenAddress('127.0.0.1:0'), { tokenSet: false });
  tokenServer = await startApiServer(
    createApiApp({ ...deps, token: TOKEN }),
    parseListenAddress('127.0.0.1:0'),
    { tokenSet: true },
  );
});

afterAll(async () => {
  await server?.close();
  await tokenServer?.close();
  await context?.close();
  await repo?.cleanup();
});

const get = (path: string) => fetch(`${server.url}${path}`);
const post = (path: string, body: unknown, type = 'application/json') =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: JSON.stringify(body),
  });
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;

/** `METHOD /path/{param}` of every route the app answers (middleware left out), as the document writes them. */
function registeredRoutes(app: OpenAPIHono): string[] {
  const routes = app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
  return [...new Set(routes)].sort();
}

async function documentedRoutes(app: OpenAPIHono): Promise<string[]> {
  const response = await app.request('/api/openapi.json');
  const doc = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

const engineStub = { getState: buildInitialEngineState, enqueue: () => {} };

describe('the OpenAPI document', () => {
  it('lists every /api route the app registers, and nothing it does not', async () => {
    const app = createApiApp({ ...deps, engine: engineStub });
    const registered = registeredRoutes(app);
    const api = registered.filter((route) => route.split(' ')[1]?.startsWith('/api/'));
    expect(await documentedRoutes(app)).toEqual(api.filter((route) => route !== 'GET /api/openapi.json'));
    // Outside /api: the web dashboard's files only (src/api/README.md), which are not the API.
    expect(registered.filter((route) => !api.includes(route))).toEqual(['GET /', 'GET /assets/{name}']);
    expect(api.length).toBeGreaterThanOrEqual(18);
  });

  it('lists every route of the engine-only app (`run --serve` on GitHub)', async () => {
    const app = createEngineApiApp({
      events: createEventHub(),
      engine: engineStub,
      provider: { name: 'github' },
    });
    const api = registeredRoutes(app);
    expect(await documentedRoutes(app)).toEqual(api.filter((route) => route !== 'GET /api/openapi.json'));
    expect(api).toContain('GET /api/status');
    expect(api).toContain('GET /api/events');
  });
});

describe('auth (FLOTILLA_SERVE_TOKEN, required on a non-loopback address)', () => {
  it('refuses every documented route without the token, with 401 and WWW-Authenticate', async () => {
    const routes = await documentedRoutes(createApiApp(deps));
    for (const route of routes) {
      const [method = 'GET', template = ''] = route.split(' ');
      const path = template.replace('{id}', ids.plain).replace('{session}', 'any');
      const response = await fetch(`${tokenServer.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' && { body: '{}' }),
      });
      expect([route, response.status]).toEqual([route, 401]);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      await response.body?.cancel();
    }
    // The document itself too, and a wrong token is no better than none.
    expect((await fetch(`${tokenServer.url}/api/openapi.json`)).status).toBe(401);
    const wrong = await fetch(`${tokenServer.url}/api/status`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${tokenServer.url}/api/status`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(right.status).toBe(200);
  });
});

describe('POST /api/work-items/:id/review', () => {
  it('approves as the human: a review, a comment, the item approved', async () => {
    const response = await post(`/api/work-items/${ids.approve}/review`, { verdict: 'approve' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      workItemID: ids.approve,
      author: 'Ada',
      state: 'APPROVED',
      previousStatus: 'review',
      status: 'approved',
    });
    const revisionID = tracker.workItems.getWorkItem(ids.approve)?.linkedRevision ?? '';
    expect(tracker.revisions.listReviews(revisionID).map((review) => review.state)).toEqual(['APPROVED']);
    expect(tracker.workItems.getWorkItemComments(ids.approve).at(-1)?.body).toContain(
      'Ada approved revision',
    );
  });

  it('requests changes with the text: the item goes back to pending', async () => {
    const response = await post(`/api/work-items/${ids.rework}/review`, {
      verdict: 'request-changes',
      body: '  Fix the failing test.  ',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ state: 'CHANGES_REQUESTED', status: 'pending' });
    const revisionID = tracker.workItems.getWorkItem(ids.rework)?.linkedRevision ?? '';
    expect(tracker.revisions.listReviews(revisionID).map((review) => review.body)).toEqual([
      'Fix the failing test.',
    ]);
  });

  it('validates the verdict and the text, naming the field, and records nothing', async () => {
    const noVerdict = await post(`/api/work-items/${ids.outside}/review`, { body: 'x' });
    expect(noVerdict.status).toBe(400);
    expect(await errorOf(noVerdict)).toMatchObject({ code: 'invalid_request', field: 'verdict' });
    const noText = await post(`/api/work-items/${ids.outside}/review`, { verdict: 'comment', body: ' ' });
    expect(noText.status).toBe(400);
    expect(await errorOf(noText)).toMatchObject({ field: 'body' });
    const unknown = await post(`/api/work-items/${ids.outside}/review`, { verdict: 'merge' });
    expect(unknown.status).toBe(400);
    expect((await post(`/api/work-items/x/review`, { verdict: 'approve' })).status).toBe(400);
    expect(
      (await post(`/api/work-items/${ids.outside}/review`, { verdict: 'approve' }, 'text/plain')).status,
    ).toBe(415);
    const revisionID = tracker.workItems.getWorkItem(ids.outside)?.linkedRevision ?? '';
    expect(tracker.revisions.listReviews(revisionID)).toEqual([]);
  });

  it('is 404 for an unknown item and 409 for one without an open revision', async () => {
    const missing = await post('/api/work-items/999/review', { verdict: 'approve' });
    expect(missing.status).toBe(404);
    const plain = await post(`/api/work-items/${ids.plain}/review`, { verdict: 'approve' });
    expect(plain.status).toBe(409);
    expect((await errorOf(plain)).message).toContain('has no open revision');
  });
});

describe('GET /api/work-items/:id/checks', () => {
  it("returns `flotilla checks --json` with its log's tail", async () => {
    const response = await get(`/api/work-items/${ids.rework}/checks`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      workItemID: ids.rework,
      status: 'failed',
      reason: 'npm test failed',
      log: { text: 'line 1\nFAIL b.test.ts', truncated: false },
    });
  });

  it('reads no log outside .flotilla/logs/, and says the checks passed without a command', async () => {
    const outside = (await (await get(`/api/work-items/${ids.outside}/checks`)).json()) as { log: unknown };
    expect(outside.log).toBeNull();
    const passed = await (await get(`/api/work-items/${ids.approve}/checks`)).json();
    expect(passed).toMatchObject({ status: 'passed', command: null, log: null });
  });

  it('is 409 without a revision, 404 for an unknown item, 400 for a bad id', async () => {
    expect((await get(`/api/work-items/${ids.plain}/checks`)).status).toBe(409);
    expect((await get('/api/work-items/999/checks')).status).toBe(404);
    expect((await get('/api/work-items/0/checks')).status).toBe(400);
  });
});

describe('GET /api/budget/days', () => {
  it('returns spend per day, oldest first, ending today', async () => {
    const report = (await (await get('/api/budget/days?days=3')).json()) as {
      dailyCapUSD: number | null;
      days: { day: string; spentUSD: number; runs: number }[];
    };
    expect(report.days).toHaveLength(3);
    expect(report.days.at(-1)).toMatchObject({
      day: periodKeysOf(Date.now(), context.config.budgets.timeZone).day,
      spentUSD: 0.75,
      runs: 1,
    });
    expect(report.days.slice(0, 2).map((day) => day.spentUSD)).toEqual([0, 0]);
    expect(report.days.map((day) => day.day)).toEqual([...report.days.map((day) => day.day)].sort());
  });

  it('validates the number of days', async () => {
    for (const days of ['0', '93', 'many']) {
      const response = await get(`/api/budget/days?days=${days}`);
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ field: 'days' });
    }
  });
});

describe('GET /api/conversations', () => {
  it('lists the conversations between agents newest first, as `flotilla conversations --json`; by item', async () => {
    const party = (sessionID: string, workItemID: string) => ({
      sessionID,
      role: 'implementor' as const,
      workItemID,
    });
    context.history.conversations.save({
      id: 'c-answered',
      from: party('s-1', '41'),
      target: '42',
      to: party('s-2', '42'),
      question: 'Which port?',
      status: 'answered',
      answer: 'Port 8080.',
      timeoutSeconds: 60,
      createdAt: 1_000,
      answeredAt: 2_000,
    });
    context.history.conversations.save({
      id: 'c-alone',
      from: party('s-3', '43'),
      target: 'planner',
      to: null,
      question: 'Anyone?',
      status: 'not-running',
      answer: 'no agent planner is running now; nobody was asked.',
      timeoutSeconds: 60,
      createdAt: 3_000,
      answeredAt: 3_000,
    });
    const all = (await (await get('/api/conversations')).json()) as { id: string }[];
    expect(all.map((conversation) => conversation.id)).toEqual(['c-alone', 'c-answered']);
    expect(all).toEqual(context.history.conversations.list({ limit: 50 }));
    // The asked item's conversations too, not only the asker's.
    const asked = (await (await get('/api/conversations?item=42')).json()) as {
      id: string;
      answer: string;
    }[];
    expect(asked).toMatchObject([{ id: 'c-answered', answer: 'Port 8080.' }]);
    expect((await get('/api/conversations?item=41&limit=1')).status).toBe(200);
    const bad = await get('/api/conversations?item=abc');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('a work item id such as 12');
  });
});

describe('GET /api/status', () => {
  it('says the provider, no engine and no quota under `flotilla serve` on the local provider', async () => {
    expect(await (await get('/api/status')).json()).toEqual({
      provider: 'local',
      engine: false,
      quota: null,
    });
  });

  it("carries the GitHub quota line as the terminal dashboard's header writes it", async () => {
    const resetAt = new Date('2026-11-27T15:04:00Z');
    const app = createEngineApiApp({
      events: createEventHub(),
      engine: engineStub,
      provider: {
        name: 'github',
        quota: () => ({ core: { limit: 5000, remaining: 800, resetAt }, pausedUntil: null }),
      },
    });
    expect(await (await app.request('/api/status')).json()).toEqual({
      provider: 'github',
      engine: true,
      quota: { text: 'GitHub 800/5000 · resets 15:04 UTC', tone: 'low' },
    });
  });
});

describe('engine actions with an engine (`flotilla run --serve`)', () => {
  const state: EngineState = {
    ...buildInitialEngineState(),
    workItems: {
      '5': buildWorkItem({ id: '5', status: 'approved', linkedRevision: '9' }),
      '6': buildWorkItem({ id: '6', status: 'blocked' }),
    },
    revisions: { '9': buildRevision({ id: '9', workItemID: '5' }) },
  };
  const enqueued: EngineEvent[] = [];
  let app: OpenAPIHono;
  beforeAll(() => {
    app = createApiApp({
      ...deps,
      engine: { getState: () => state, enqueue: (event) => enqueued.push(event) },
    });
  });
  const act = (id: string, action: string) =>
    app.request(`/api/work-items/${id}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });

  it('enqueues what the dashboard key would (202), and says what is possible instead (409)', async () => {
    const merge = await act('5', 'merge');
    expect(merge.status).toBe(202);
    expect(await merge.json()).toEqual({ workItemID: '5', action: 'merge', event: 'userRequestedMerge' });
    const unblock = await act('6', 'unblock');
    expect(unblock.status).toBe(202);
    expect(enqueued).toEqual([
      { type: 'userRequestedMerge', workItemID: '5' },
      { type: 'userTransitionedStatus', workItemID: '6', newStatus: 'pending' },
    ]);
    const refused = await act('5', 'unblock');
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toContain('possible: merge');
    expect((await act('5', 'cancel')).status).toBe(409);
    expect((await act('5', 'retry')).status).toBe(409);
  });

  it('is 404 for an item the engine does not know, 400 for a bad id; nothing enqueued', async () => {
    const before = enqueued.length;
    expect((await act('77', 'merge')).status).toBe(404);
    expect((await act('abc', 'merge')).status).toBe(400);
    expect(enqueued).toHaveLength(before);
  });
});
