import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubTestProvider } from '../../test/support/github/create-github-test-provider.ts';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { loadConfig } from '../config/index.ts';
import { createEngineStatePersistence, openDatabase } from '../storage/index.ts';
import { createEventHub, type EventHub } from './create-event-hub.ts';
import { createProviderApiApp } from './create-provider-api-app.ts';
import { type ProviderItemsWatch, watchProviderItems } from './watch-provider-items.ts';

/**
 * `flotilla serve` on GitHub (read-only) against the fake GitHub: the items as the provider lists them, one
 * item's body and comments, the quota line from GitHub's own headers, tracker actions through the provider.
 */

let fixture: Awaited<ReturnType<typeof createGitHubTestProvider>>;
let dir: ReturnType<typeof createTempDir>;
let db: ReturnType<typeof openDatabase>;
let events: EventHub;
let watch: ProviderItemsWatch;
let app: OpenAPIHono;
let engineRunning = false;
const issues = { task: 0, blocked: 0, other: 0 };

beforeAll(async () => {
  fixture = await createGitHubTestProvider();
  const { github, provider } = fixture;
  issues.task = github.human.createIssue({
    title: 'Add greet',
    body: 'Say hello.',
    labels: ['task:implement'],
  });
  issues.blocked = github.human.createIssue({
    title: 'Park me',
    labels: ['task:implement', 'status:blocked'],
  });
  issues.other = github.human.createIssue({ title: 'A question, not a task' });
  github.human.comment(issues.task, 'please use the default greeting');
  dir = createTempDir('flotilla-serve-github-');
  db = openDatabase(join(dir.path, 'flotilla.db'));
  events = createEventHub();
  watch = watchProviderItems(provider, events, 3_600_000, () => {});
  await watch.refresh();
  const loaded = await loadConfig(dir.path);
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  app = createProviderApiApp({
    config: loaded.config,
    providerName: 'github',
    provider: { ...provider, quota: () => provider.quota() },
    watch,
    history: createEngineStatePersistence(db),
    events,
    isEngineRunning: () => engineRunning,
    readAuthor: async () => 'Ada',
  });
}, 60_000);

afterAll(async () => {
  watch?.stop();
  db?.close();
  dir?.remove();
  await fixture?.cleanup();
});

const get = async (path: string) => {
  const response = await app.request(path);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[] };
};
const post = (path: string, body: unknown = {}) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('flotilla serve on GitHub', () => {
  it("lists the provider's work items (issues with a kind label), filtered by status", async () => {
    const all = await get('/api/work-items');
    expect(all.status).toBe(200);
    expect((all.body as { id: string; status: string }[]).map((item) => [item.id, item.status])).toEqual([
      [String(issues.task), 'pending'],
      [String(issues.blocked), 'blocked'],
    ]);
    const blocked = (await get('/api/work-items?status=blocked')).body as { id: string }[];
    expect(blocked.map((item) => item.id)).toEqual([String(issues.blocked)]);
    expect((await get('/api/work-items?status=nope')).status).toBe(400);
  });

  it("shows one item with its body and the issue's comments", async () => {
    const item = await get(`/api/work-items/${issues.task}`);
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({
      title: 'Add greet',
      body: 'Say hello.',
      revision: null,
      waitingFor: [],
    });
    expect((item.body.comments as { body: string }[]).map((comment) => comment.body)).toEqual([
      'please use the default greeting',
    ]);
    expect((await get('/api/work-items/9999')).status).toBe(404);
  });

  it('follows a change on GitHub: the next read publishes work-item.changed', async () => {
    const before = events.since(0).length;
    fixture.github.human.setIssueLabels(issues.blocked, ['task:implement', 'status:needs-refinement']);
    await watch.refresh();
    expect(
      events
        .since(0)
        .slice(before)
        .map((event) => [event.type, event.data]),
    ).toEqual([['work-item.changed', { workItemID: String(issues.blocked), status: 'needs-refinement' }]]);
  });

  it("shows GitHub's quota line, as the terminal dashboard's header", async () => {
    const status = await get('/api/status');
    expect(status.body).toMatchObject({ provider: 'github', engine: false });
    expect((status.body.quota as { text: string }).text).toMatch(/^GitHub \d+\/\d+ · resets \d\d:\d\d UTC$/);
  });

  it('comments, dispatches and answers through the provider on GitHub; refuses a review, naming the command', async () => {
    const commented = await post(`/api/work-items/${issues.task}/comments`, { body: 'Keep it short.' });
    expect([commented.status, await commented.json()]).toEqual([
      200,
      { workItemID: String(issues.task), author: 'Ada' },
    ]);
    expect(fixture.github.issueComments(issues.task).at(-1)).toMatch(
      /^Keep it short\.\n\n— Ada \(via flotilla\)$/,
    );

    const dispatched = await post(`/api/work-items/${issues.task}/dispatch`);
    expect(dispatched.status).toBe(200);
    expect(await dispatched.json()).toMatchObject({ workItemID: String(issues.task), status: 'ready' });
    // The issue's label on GitHub, and the list this server shows, read again after the write.
    expect(fixture.github.human.issueLabels(issues.task)).toContain('status:ready');
    const listed = (await get('/api/work-items')).body as unknown as { id: string; status: string }[];
    expect(listed.find((item) => item.id === String(issues.task))?.status).toBe('ready');

    const answer = await post(`/api/work-items/${issues.task}/answer`, { body: 'Use hello.' });
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(
      'not waiting-for-input',
    );

    const review = await post(`/api/work-items/${issues.task}/review`, { verdict: 'approve' });
    expect(review.status).toBe(409);
    expect(await review.json()).toEqual({
      error: {
        code: 'read_only',
        message: `flotilla serve on github does not review: use \`flotilla review ${issues.task}\` (or GitHub itself); no \`flotilla run\` is running here: one takes it when it starts`,
      },
    });
    engineRunning = true;
    const again = await post(`/api/work-items/${issues.task}/review`, { verdict: 'approve' });
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain(
      'the running `flotilla run` sees it at its next poll',
    );
    const merge = await post(`/api/work-items/${issues.task}/merge`);
    expect(merge.status).toBe(409);
    expect(((await merge.json()) as { error: { code: string } }).error.code).toBe('engine_not_running');
  });

  it('documents every route it registers', async () => {
    const doc = (await (await app.request('/api/openapi.json')).json()) as { paths: Record<string, object> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const registered = app.routes
      .filter(
        (route) =>
          route.method !== 'ALL' && route.path.startsWith('/api/') && route.path !== '/api/openapi.json',
      )
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect([...new Set(documented)].sort()).toEqual([...new Set(registered)].sort());
  });
});
