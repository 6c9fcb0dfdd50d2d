import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunApiRoot } from '../cli/support/start-run-api.ts';
import { createRecordingLogger } from '../logging/logger.ts';
import {
  createGitHubWebhookReceiver,
  type GitHubWebhookReceiver,
  MAX_WEBHOOK_BODY_BYTES,
} from '../providers/github/webhooks/create-github-webhook-receiver.ts';
import { signWebhookBody } from '../providers/github/webhooks/verify-webhook-signature.ts';
import type { ProviderChange } from '../providers/types.ts';
import { createEngineApiApp } from './create-engine-api-app.ts';
import { createEventHub } from './create-event-hub.ts';
import { createWebhookRoutes } from './create-webhook-routes.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';

const SECRET = 'hook-secret-for-tests';
const logger = createRecordingLogger();
let receiver: GitHubWebhookReceiver;
let server: RunningApiServer;
const changes: ProviderChange[] = [];

beforeAll(async () => {
  receiver = createGitHubWebhookReceiver({ secret: SECRET, owner: 'acme', repo: 'widgets', logger });
  receiver.onChange((change) => changes.push(change));
  // As `run --serve` on GitHub composes it, with a bearer token set: the webhook must not need it.
  const api = createEngineApiApp({
    events: createEventHub(),
    provider: { name: 'github' },
    engine: {
      getState: () => {
        throw new Error('not used');
      },
      enqueue: () => {},
    },
    token: 'serve-token',
  });
  server = await startApiServer(
    buildRunApiRoot(
      api,
      createWebhookRoutes({ path: '/webhooks/github', receiver, maxBodyBytes: MAX_WEBHOOK_BODY_BYTES }),
    ),
    parseListenAddress('127.0.0.1:0'),
    { tokenSet: true },
  );
});
afterAll(() => server.close());

function deliver(event: string, payload: object, headers: Record<string, string | null> = {}) {
  const body = JSON.stringify({ repository: { full_name: 'acme/widgets' }, ...payload });
  const all: Record<string, string | null> = {
    'content-type': 'application/json',
    'x-github-event': event,
    'x-github-delivery': crypto.randomUUID(),
    'x-hub-signature-256': signWebhookBody(body, SECRET),
    ...headers,
  };
  return fetch(`${server.url}/webhooks/github`, {
    method: 'POST',
    headers: Object.fromEntries(
      Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
    body,
  });
}

describe('POST /webhooks/github', () => {
  it('acts on a good signature without the bearer token; /api still needs it', async () => {
    const response = await deliver('check_run', {
      action: 'completed',
      check_run: { head_sha: 'f'.repeat(40) },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      message: 'check_run: polling revisions (head ffffffffffff)',
    });
    expect(changes).toEqual(['revisions']);
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(401);
  });

  it('refuses a missing or a wrong signature with 401', async () => {
    changes.length = 0;
    expect((await deliver('issues', { issue: { number: 1 } }, { 'x-hub-signature-256': null })).status).toBe(
      401,
    );
    const wrong = await deliver(
      'issues',
      { issue: { number: 1 } },
      {
        'x-hub-signature-256': signWebhookBody('{}', SECRET),
      },
    );
    expect(wrong.status).toBe(401);
    expect(changes).toEqual([]);
  });

  it('ignores a replayed delivery', async () => {
    changes.length = 0;
    const id = crypto.randomUUID();
    expect((await deliver('issues', { issue: { number: 2 } }, { 'x-github-delivery': id })).status).toBe(200);
    const replay = await deliver('issues', { issue: { number: 2 } }, { 'x-github-delivery': id });
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { message: string }).message).toMatch(/already handled/);
    expect(changes).toEqual(['workItems']);
  });

  it('answers ping and takes a body over the API limit (256 KiB), as GitHub sends up to 25 MB', async () => {
    expect(await (await deliver('ping', { zen: 'Speak like a human.', hook_id: 1 })).json()).toEqual({
      ok: true,
      message: 'pong',
    });
    const big = await deliver('pull_request', { pull_request: { number: 4, body: 'x'.repeat(300_000) } });
    expect(big.status).toBe(200);
  });
});
