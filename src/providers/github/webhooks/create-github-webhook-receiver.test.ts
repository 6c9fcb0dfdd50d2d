import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../../logging/logger.ts';
import type { ProviderChange } from '../../types.ts';
import {
  createGitHubWebhookReceiver,
  REMEMBERED_DELIVERIES,
  WEBHOOK_POLL_FACTOR,
  WEBHOOK_QUIET_MS,
  type WebhookDelivery,
} from './create-github-webhook-receiver.ts';
import { signWebhookBody } from './verify-webhook-signature.ts';

const SECRET = 'webhook-s3cret-value';

function setup() {
  let clock = 1_000_000;
  const logger = createRecordingLogger();
  const receiver = createGitHubWebhookReceiver({
    secret: SECRET,
    owner: 'acme',
    repo: 'widgets',
    logger,
    now: () => clock,
  });
  const changes: ProviderChange[] = [];
  receiver.onChange((change) => changes.push(change));
  return { receiver, logger, changes, advance: (ms: number) => (clock += ms) };
}

function delivery(
  event: string,
  payload: object,
  fields: Partial<Omit<WebhookDelivery, 'body'>> = {},
): WebhookDelivery {
  const body = new TextEncoder().encode(
    JSON.stringify({ repository: { full_name: 'acme/widgets' }, ...payload }),
  );
  return {
    event,
    deliveryID: fields.deliveryID ?? `d-${Math.random().toString(36).slice(2)}`,
    signature: 'signature' in fields ? fields.signature : signWebhookBody(body, SECRET),
    contentType: fields.contentType ?? 'application/json',
    body,
  };
}

describe('createGitHubWebhookReceiver', () => {
  it('turns a verified delivery into a poll of its readers', () => {
    const { receiver, changes } = setup();
    const answer = receiver.receiveDelivery(
      delivery('pull_request', { action: 'closed', pull_request: { number: 3 } }),
    );
    expect(answer).toEqual({
      status: 200,
      body: { ok: true, message: 'pull_request: polling revisions and workItems (pull request #3)' },
    });
    expect(changes).toEqual(['revisions', 'workItems']);
  });

  it('refuses unsigned and wrongly signed deliveries with 401, polls nothing, logs once without the secret', () => {
    const { receiver, logger, changes, advance } = setup();
    const unsigned = receiver.receiveDelivery(
      delivery('issues', { issue: { number: 1 } }, { signature: undefined }),
    );
    expect(unsigned.status).toBe(401);
    const forged = delivery(
      'issues',
      { issue: { number: 1 } },
      { signature: signWebhookBody('{}', 'guess') },
    );
    expect(receiver.receiveDelivery(forged).status).toBe(401);
    expect(receiver.receiveDelivery({ ...forged, deliveryID: 'again' }).status).toBe(401);
    expect(changes).toEqual([]);
    const warnings = logger.records.filter((record) => record.level === 'warn');
    // One line per reason (missing, mismatch); the repeated mismatch is counted into the next line.
    expect(warnings.map((record) => record.message)).toEqual([
      'GitHub webhook: refused a delivery, its X-Hub-Signature-256 is missing',
      'GitHub webhook: refused a delivery, its X-Hub-Signature-256 is mismatch',
    ]);
    advance(60_000);
    receiver.receiveDelivery({ ...forged, deliveryID: 'later' });
    expect(logger.records.at(-1)?.fields).toEqual({ deliveryID: 'later', refusedSinceLastLine: 1 });
    expect(JSON.stringify(logger.records)).not.toContain(SECRET);
    expect(receiver.stats().rejected).toBe(4);
  });

  it('handles a redelivered X-GitHub-Delivery once', () => {
    const { receiver, changes } = setup();
    const first = delivery(
      'issues',
      { issue: { number: 1 } },
      { deliveryID: '72d3162e-cc78-11e3-81ab-4c9367dc0958' },
    );
    expect(receiver.receiveDelivery(first).status).toBe(200);
    const again = receiver.receiveDelivery(first);
    expect(again).toEqual({
      status: 200,
      body: { ok: true, message: 'delivery 72d3162e-cc78-11e3-81ab-4c9367dc0958 was already handled' },
    });
    expect(changes).toEqual(['workItems']);
    expect(receiver.stats()).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it(`remembers the last ${REMEMBERED_DELIVERIES} deliveries only (bounded memory)`, () => {
    const { receiver, changes } = setup();
    const oldest = delivery('issues', { issue: { number: 1 } }, { deliveryID: 'oldest' });
    receiver.receiveDelivery(oldest);
    for (let index = 0; index < REMEMBERED_DELIVERIES; index++) {
      receiver.receiveDelivery(delivery('ping', {}, { deliveryID: `p-${index}` }));
    }
    // Forgotten, so handled again: one extra poll, never a missed one.
    receiver.receiveDelivery(oldest);
    expect(changes).toEqual(['workItems', 'workItems']);
  });

  it('answers ping, refuses a form-encoded hook (415) and a delivery without its headers (400)', () => {
    const { receiver, changes } = setup();
    expect(
      receiver.receiveDelivery(delivery('ping', { zen: 'Non-blocking is better than blocking.' })).body
        .message,
    ).toBe('pong');
    expect(
      receiver.receiveDelivery(delivery('issues', {}, { contentType: 'application/x-www-form-urlencoded' }))
        .status,
    ).toBe(415);
    expect(receiver.receiveDelivery({ ...delivery('issues', {}), event: undefined }).status).toBe(400);
    expect(receiver.receiveDelivery({ ...delivery('issues', {}), deliveryID: undefined }).status).toBe(400);
    expect(changes).toEqual([]);
  });

  it(`polls ${WEBHOOK_POLL_FACTOR}× slower while deliveries flow, and at the configured pace once they stop`, () => {
    const { receiver, advance } = setup();
    expect(receiver.pollIntervalFactor()).toBe(1);
    receiver.receiveDelivery(delivery('status', { sha: 'a'.repeat(40) }));
    expect(receiver.pollIntervalFactor()).toBe(WEBHOOK_POLL_FACTOR);
    advance(WEBHOOK_QUIET_MS - 1);
    expect(receiver.pollIntervalFactor()).toBe(WEBHOOK_POLL_FACTOR);
    advance(1);
    expect(receiver.pollIntervalFactor()).toBe(1);
    // A refused delivery does not count as webhooks flowing.
    receiver.receiveDelivery(delivery('status', { sha: 'a'.repeat(40) }, { signature: 'sha256=00' }));
    expect(receiver.pollIntervalFactor()).toBe(1);
  });

  it('refuses to start without a secret', () => {
    expect(() =>
      createGitHubWebhookReceiver({ secret: '', owner: 'a', repo: 'b', logger: createRecordingLogger() }),
    ).toThrow(/FLOTILLA_GITHUB_WEBHOOK_SECRET/);
  });
});
