import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliContext, openCliContext } from '../cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../cli/support/require-local-tracker.ts';
import type { SqliteTracker } from '../storage/index.ts';
import { createApiApp } from './create-api-app.ts';
import { createEventHub, type EventHub } from './create-event-hub.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';

let dir: string;
let context: CliContext;
let tracker: SqliteTracker;
let events: EventHub;
let server: RunningApiServer;
let tokenServer: RunningApiServer;
let apiDeps: Parameters<typeof createApiApp>[0];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-api-'));
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  context = await openCliContext(dir);
  tracker = await requireLocalTracker(context, 'serve');
  events = createEventHub(3);
  const deps = {
    config: context.config,
    tracker,
    provider: await context.provider.open(),
    history: context.history,
    paths: context.paths,
    events,
    readAuthor: async () => 'Ada',
  };
  apiDeps = deps;
  server = await startApiServer(createApiApp(deps), parseListenAddress('127.0.0.1:0'), { tokenSet: false });
  tokenServer = await startApiServer(
    createApiApp({ ...deps, token: 's3cret' }),
    parseListenAddress('127.0.0.1:0'),
    {
      tokenSet: true,
    },
  );
  const items = tracker.workItems;
  items.createWorkItem({ title: 'Login', body: 'Add login', labels: ['area:auth'], blockedBy: [] });
  items.createWorkItem({ title: 'Logout', body: '', labels: [], blockedBy: [] });
});

afterAll(async () => {
  await server.close();
  await tokenServer.close();
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const post = (path: string, body: unknown, type = 'application/json') =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('reads', () => {
  it('lists work items with filters', async () => {
    const all = await get('/api/work-items');
    expect(all.status).toBe(200);
    expect(((await all.json()) as { title: string }[]).map((i) => i.title)).toEqual(['Login', 'Logout']);
    const labelled = await (await get('/api/work-items?label=area:auth')).json();
    expect((labelled as { id: string }[]).map((i) => i.id)).toEqual(['1']);
    const closed = await (await get('/api/work-items?state=closed')).json();
    expect(closed).toEqual([]);
  });

  it('refuses an unknown status filter naming the field', async () => {
    const response = await get('/api/work-items?status=nope');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; field?: string } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.field).toBe('status.0');
  });

  it('shows one item, 404 for an unknown one, 400 for a malformed id', async () => {
    const shown = await get('/api/work-items/%231');
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      id: '1',
      body: 'Add login',
      labels: ['task:implement', 'area:auth'],
      revision: null,
    });
    const missing = await get('/api/work-items/99');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /#99 does not exist/,
    );
    expect((await get('/api/work-items/abc')).status).toBe(400);
  });

  it('reads runs, an unknown run and the budget', async () => {
    expect(await (await get('/api/runs')).json()).toEqual([]);
    expect((await get('/api/runs?limit=0')).status).toBe(400);
    expect((await get('/api/runs/nope')).status).toBe(404);
    const budget = await get('/api/budget');
    expect(budget.status).toBe(200);
    expect(await budget.json()).toMatchObject({ totalSpentUSD: 0 });
  });

  it('answers unknown routes with a JSON 404 and no CORS header', async () => {
    const response = await get('/api/nothing', { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves an OpenAPI document generated from the schemas', async () => {
    const doc = (await (await get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/work-items', '/api/work-items/{id}', '/api/work-items/{id}/dispatch']),
    );
  });
});

describe('actions', () => {
  it('comments as the human author', async () => {
    const response = await post('/api/work-items/2/comments', { body: 'looks good' });
    expect(response.status).toBe(200);
    expect(tracker.workItems.getWorkItemComments('2').at(-1)).toMatchObject({
      body: 'looks good',
      author: 'Ada',
    });
  });

  it('validates bodies, content type and size', async () => {
    const empty = await post('/api/work-items/2/comments', { body: '  ' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { field: string } }).error.field).toBe('body');
    expect(
      (await post('/api/work-items/2/comments', 'body=x', 'application/x-www-form-urlencoded')).status,
    ).toBe(415);
    expect((await post('/api/work-items/2/comments', '{not json')).status).toBe(400);
  });

  it('dispatches a pending item and refuses one in the wrong status', async () => {
    const response = await post('/api/work-items/1/dispatch', {});
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ from: 'pending', status: 'ready' });
    expect(tracker.workItems.getWorkItem('1')?.status).toBe('ready');
    tracker.workItems.transitionStatus('1', 'in-progress');
    const refused = await post('/api/work-items/1/dispatch', {});
    expect(refused.status).toBe(409);
  });

  it('refuses an answer when no agent waits for one', async () => {
    const response = await post('/api/work-items/2/answer', { body: 'use JWT' });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /not waiting-for-input/,
    );
  });
});

describe('engine actions without an engine (flotilla serve)', () => {
  it('refuses cancel, retry, unblock and merge, naming run --serve', async () => {
    for (const action of ['cancel', 'retry', 'unblock', 'merge']) {
      const response = await post(`/api/work-items/1/${action}`, {});
      expect(response.status).toBe(409);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('engine_not_running');
      expect(body.error.message).toContain('flotilla run --serve');
    }
  });

  it('lists them in the OpenAPI document', async () => {
    const doc = (await (await get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/work-items/{id}/cancel');
    expect(Object.keys(doc.paths)).toContain('/api/work-items/{id}/merge');
  });
});

describe('auth', () => {
  it('requires the bearer token when one is set', async () => {
    expect((await fetch(`${tokenServer.url}/api/work-items`)).status).toBe(401);
    const wrong = await fetch(`${tokenServer.url}/api/work-items`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${tokenServer.url}/api/work-items`, {
      headers: { authorization: 'Bearer s3cret' },
    });
    expect(right.status).toBe(200);
  });

  it('refuses a non-loopback address without a token', async () => {
    await expect(
      startApiServer(createApiApp(apiDeps), parseListenAddress('0.0.0.0:0'), { tokenSet: false }),
    ).rejects.toThrow(/FLOTILLA_SERVE_TOKEN/);
  });
});

describe('events', () => {
  it('streams events and resumes after Last-Event-ID', async () => {
    const first = events.publish('work-item-changed', { id: '1' });
    events.publish('work-item-changed', { id: '2' });
    const abort = new AbortController();
    const response = await get('/api/events', {
      headers: { 'last-event-id': String(first.id) },
      signal: abort.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    events.publish('run-finished', { id: '3' });
    while (!text.includes('"3"')) text += decoder.decode((await reader.read()).value);
    abort.abort();
    expect(text).not.toContain('data: {"id":"1"}');
    expect(text).toContain(`event: work-item-changed\ndata: {"id":"2"}\nid: ${first.id + 1}\n`);
    expect(text).toContain(`event: run-finished\ndata: {"id":"3"}\nid: ${first.id + 2}\n`);
  });
});

// Last: the server answers 413 before reading the body and drops that connection.
describe('limits', () => {
  it('refuses a body over the size limit', async () => {
    expect((await post('/api/work-items/2/comments', { body: 'x'.repeat(300_000) })).status).toBe(413);
  });
});
