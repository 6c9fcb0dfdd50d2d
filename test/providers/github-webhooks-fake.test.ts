/**
 * GitHub's webhooks end to end against the fake GitHub: it signs and POSTs deliveries as GitHub does
 * (docs/github-webhooks.md) to the real route and receiver `flotilla run --serve` mounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookRoutes } from '../../src/api/create-webhook-routes.ts';
import { parseListenAddress } from '../../src/api/parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from '../../src/api/start-api-server.ts';
import { createFakeGitHub, type FakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import {
  createGitHubWebhookReceiver,
  type GitHubWebhookReceiver,
  MAX_WEBHOOK_BODY_BYTES,
} from '../../src/providers/github/webhooks/create-github-webhook-receiver.ts';
import { WEBHOOK_EVENTS } from '../../src/providers/github/webhooks/map-webhook-delivery.ts';
import type { ProviderChange } from '../../src/providers/types.ts';

const TOKEN = 'ghp_webhook_fake_token';
const SECRET = 'the-hook-secret';
let github: FakeGitHub;
let server: RunningApiServer;
let receiver: GitHubWebhookReceiver;
const logger = createRecordingLogger();
const changes: ProviderChange[] = [];
/** The work item each change names (null: the whole reader). */
const scopes: (string | null)[] = [];

beforeAll(async () => {
  github = await createFakeGitHub({ token: TOKEN, ci: 'passing' });
  receiver = createGitHubWebhookReceiver({ secret: SECRET, owner: github.owner, repo: github.repo, logger });
  receiver.onChange((change, scope) => {
    changes.push(change);
    scopes.push(scope?.workItemID ?? null);
  });
  server = await startApiServer(
    createWebhookRoutes({ path: '/webhooks/github', receiver, maxBodyBytes: MAX_WEBHOOK_BODY_BYTES }),
    parseListenAddress('127.0.0.1:0'),
    { tokenSet: false },
  );
});
afterAll(async () => {
  await server.close();
  await github.close();
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${github.apiUrl}/repos/${github.owner}/${github.repo}${path}`, {
    method,
    headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function lastDeliveries(count: number) {
  await github.webhooks.settled();
  return github.webhooks.deliveries
    .slice(-count)
    .map(({ event, action, status }) => ({ event, action, status }));
}

describe('the fake GitHub delivering webhooks', () => {
  it('creates a hook through the REST API (secret masked) and pings it', async () => {
    const created = await api('POST', '/hooks', {
      name: 'web',
      active: true,
      events: [...WEBHOOK_EVENTS],
      config: {
        url: `${server.url}/webhooks/github`,
        content_type: 'json',
        secret: SECRET,
        insecure_ssl: '0',
      },
    });
    expect(created.status).toBe(201);
    const hook = (await created.json()) as { id: number; active: boolean; config: Record<string, string> };
    expect(hook.active).toBe(true);
    expect(hook.config).toMatchObject({ content_type: 'json', secret: '********' });
    expect(await lastDeliveries(1)).toEqual([{ event: 'ping', action: null, status: 200 }]);
    const listed = (await (await api('GET', '/hooks')).json()) as { id: number }[];
    expect(listed.map((entry) => entry.id)).toEqual([hook.id]);
  });

  it("sends a signed delivery for each change; the receiver polls the change's reader", async () => {
    changes.length = 0;
    scopes.length = 0;
    const issue = github.human.createIssue({ title: 'Add greet', labels: ['task:implement'] });
    github.human.comment(issue, 'an answer');
    const pull = await github.human.openPullRequest({
      branch: 'feature',
      files: { 'a.txt': 'a\n' },
      title: 'A',
    });
    github.human.comment(pull, '@flotilla please');
    await github.settleChecks();
    expect(await lastDeliveries(5)).toEqual([
      { event: 'issues', action: 'opened', status: 200 },
      { event: 'issue_comment', action: 'created', status: 200 },
      { event: 'pull_request', action: 'opened', status: 200 },
      { event: 'issue_comment', action: 'created', status: 200 },
      { event: 'check_run', action: 'completed', status: 200 },
    ]);
    expect(changes).toEqual(['workItems', 'workItems', 'revisions', 'workItems', 'revisions', 'revisions']);
    // An issue's events name its work item (polled alone); a pull request's changes poll the readers.
    expect(scopes).toEqual([String(issue), String(issue), null, null, null, null]);
  });

  it("sends deliveries for Flotilla's own REST writes (labels, comments)", async () => {
    const before = github.webhooks.deliveries.length;
    expect((await api('POST', '/issues/1/labels', { labels: ['status:ready'] })).status).toBe(200);
    expect((await api('POST', '/issues/1/comments', { body: 'on it' })).status).toBe(201);
    await github.webhooks.settled();
    expect(github.webhooks.deliveries.slice(before).map(({ event, action }) => [event, action])).toEqual([
      ['issues', 'labeled'],
      ['issue_comment', 'created'],
    ]);
  });

  it('a redelivery (same X-GitHub-Delivery) is answered 200 and acted on once', async () => {
    changes.length = 0;
    github.human.closeIssue(1);
    await github.webhooks.settled();
    const delivery = github.webhooks.deliveries.at(-1);
    expect(delivery).toMatchObject({ event: 'issues', action: 'closed', status: 200 });
    expect(await github.webhooks.redeliver(delivery?.id as string)).toBe(200);
    expect(changes).toEqual(['workItems']);
    expect(receiver.stats().duplicates).toBe(1);
  });

  it('a hook signing with another secret, or none, is refused (401) and polls nothing', async () => {
    changes.length = 0;
    const url = `${server.url}/webhooks/github`;
    github.webhooks.addHook({ url, secret: 'not-the-secret', events: ['issues'] });
    github.webhooks.addHook({ url, secret: '', events: ['issues'] });
    github.human.createIssue({ title: 'Another' });
    await github.webhooks.settled();
    const statuses = github.webhooks.deliveries.slice(-3).map(({ hookID, status }) => [hookID, status]);
    expect(statuses).toEqual([
      [1, 200],
      [2, 401],
      [3, 401],
    ]);
    expect(changes).toEqual(['workItems']);
    const warnings = logger.records
      .filter((record) => record.level === 'warn')
      .map((record) => record.message);
    expect(warnings).toEqual([
      'GitHub webhook: refused a delivery, its X-Hub-Signature-256 is mismatch',
      'GitHub webhook: refused a delivery, its X-Hub-Signature-256 is missing',
    ]);
  });
});
