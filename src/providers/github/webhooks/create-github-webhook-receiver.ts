import type { Logger } from '../../../logging/logger.ts';
import type { WebhookReceiver } from '../../provider-descriptor.ts';
import type { ProviderChangeListener } from '../../types.ts';
import { mapWebhookDelivery } from './map-webhook-delivery.ts';
import { type SignatureVerdict, verifyWebhookSignature } from './verify-webhook-signature.ts';

/**
 * One delivery as it arrived: the headers GitHub sends (`X-GitHub-Event`; `X-GitHub-Delivery`, a GUID the
 * same on a redelivery; `X-Hub-Signature-256`, `sha256=<hex>`; `Content-Type`) and the raw body bytes.
 */
export interface WebhookDelivery {
  event: string | undefined;
  deliveryID: string | undefined;
  signature: string | undefined;
  contentType: string | undefined;
  body: Uint8Array;
}

/** What to answer: the HTTP status and a small JSON body (nothing from the request echoed but the event). */
type WebhookAnswer = ReturnType<WebhookReceiver['receive']>;

export interface GitHubWebhookReceiver extends WebhookReceiver {
  /** The same as `receive`, from the headers already picked out. */
  receiveDelivery(delivery: WebhookDelivery): WebhookAnswer;
  /** Counters for tests and the log. */
  stats(): { accepted: number; duplicates: number; rejected: number; lastDeliveryAt: number | null };
}

/** The secret GitHub signs deliveries with (set on the hook and here; never in the config file). */
export const WEBHOOK_SECRET_VARIABLE = 'FLOTILLA_GITHUB_WEBHOOK_SECRET';
/** How much slower the engine's timers poll while webhooks flow: ×4 (30 s → 2 min at the defaults). */
export const WEBHOOK_POLL_FACTOR = 4;
/** GitHub caps a payload at 25 MB and does not deliver larger ones (docs/github-webhooks.md). */
export const MAX_WEBHOOK_BODY_BYTES = 25 * 1024 * 1024;
/** Webhooks count as flowing for this long after a verified delivery: 10 minutes. */
export const WEBHOOK_QUIET_MS = 10 * 60_000;
/** Delivery ids remembered to drop redeliveries: the last 4096 (about 200 KB). */
export const REMEMBERED_DELIVERIES = 4096;
/** A refused delivery is logged once; more of the same reason within a minute are counted into the next line. */
const REJECTION_LOG_INTERVAL_MS = 60_000;

/**
 * GitHub's webhook deliveries for one repository (docs/github-webhooks.md): verified against the secret
 * (`X-Hub-Signature-256`, constant time), a redelivered `X-GitHub-Delivery` dropped, and each event turned
 * into "poll these readers now" for the engine — the polls stay the source of truth, so a lost delivery
 * costs one poll interval and a forged one (impossible without the secret) only an extra poll.
 */
export function createGitHubWebhookReceiver(options: {
  secret: string;
  owner: string;
  repo: string;
  logger: Logger;
  now?: () => number;
}): GitHubWebhookReceiver {
  if (options.secret === '') {
    throw new Error('GitHub webhooks need FLOTILLA_GITHUB_WEBHOOK_SECRET (the secret the hook signs with)');
  }
  const now = options.now ?? Date.now;
  const { logger } = options;
  const listeners = new Set<ProviderChangeListener>();
  // Insertion-ordered: the oldest id is dropped first once REMEMBERED_DELIVERIES are held.
  const seen = new Set<string>();
  const counts = { accepted: 0, duplicates: 0, rejected: 0 };
  let lastDeliveryAt: number | null = null;
  const rejectionLog = new Map<string, { loggedAt: number; suppressed: number }>();

  function reject(reason: Exclude<SignatureVerdict, 'ok'>, deliveryID: string | undefined): WebhookAnswer {
    counts.rejected += 1;
    const entry = rejectionLog.get(reason);
    const at = now();
    if (entry === undefined || at - entry.loggedAt >= REJECTION_LOG_INTERVAL_MS) {
      logger.warn(`GitHub webhook: refused a delivery, its X-Hub-Signature-256 is ${reason}`, {
        deliveryID: deliveryID?.slice(0, 64) ?? null,
        refusedSinceLastLine: entry?.suppressed ?? 0,
      });
      rejectionLog.set(reason, { loggedAt: at, suppressed: 0 });
    } else {
      entry.suppressed += 1;
    }
    const message =
      reason === 'missing'
        ? 'unsigned: the hook must have a secret (X-Hub-Signature-256)'
        : 'the signature does not match the secret';
    return { status: 401, body: { ok: false, message } };
  }

  const receiver: GitHubWebhookReceiver = {
    receive: (request) =>
      receiver.receiveDelivery({
        event: request.header('x-github-event'),
        deliveryID: request.header('x-github-delivery'),
        signature: request.header('x-hub-signature-256'),
        contentType: request.header('content-type'),
        body: request.body,
      }),
    receiveDelivery(delivery) {
      const verdict = verifyWebhookSignature(delivery.body, delivery.signature, options.secret);
      if (verdict !== 'ok') return reject(verdict, delivery.deliveryID);
      if (!/^application\/json(\s*;|$)/i.test(delivery.contentType ?? '')) {
        return {
          status: 415,
          body: { ok: false, message: "set the hook's content type to application/json" },
        };
      }
      const event = delivery.event ?? '';
      const deliveryID = delivery.deliveryID ?? '';
      if (!/^[\w.-]{1,64}$/.test(event) || !/^[\w-]{1,64}$/.test(deliveryID)) {
        return { status: 400, body: { ok: false, message: 'needs X-GitHub-Event and X-GitHub-Delivery' } };
      }
      lastDeliveryAt = now();
      if (seen.has(deliveryID)) {
        counts.duplicates += 1;
        return { status: 200, body: { ok: true, message: `delivery ${deliveryID} was already handled` } };
      }
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(delivery.body).toString('utf8'));
      } catch {
        return { status: 400, body: { ok: false, message: 'the body is not JSON' } };
      }
      seen.add(deliveryID);
      if (seen.size > REMEMBERED_DELIVERIES) seen.delete(seen.values().next().value as string);
      counts.accepted += 1;
      const action = mapWebhookDelivery(event, payload, options);
      if (action.kind === 'ping') return { status: 200, body: { ok: true, message: 'pong' } };
      if (action.kind === 'ignore') {
        logger.debug('GitHub webhook: delivery ignored', { event, deliveryID, reason: action.reason });
        return { status: 200, body: { ok: true, message: `ignored: ${action.reason}` } };
      }
      logger.debug('GitHub webhook: polling now', { event, deliveryID, target: action.target });
      const scope = action.workItemID === undefined ? undefined : { workItemID: action.workItemID };
      for (const change of action.changes) for (const listener of listeners) listener(change, scope);
      return {
        status: 200,
        body: { ok: true, message: `${event}: polling ${action.changes.join(' and ')} (${action.target})` },
      };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pollIntervalFactor: () =>
      lastDeliveryAt !== null && now() - lastDeliveryAt < WEBHOOK_QUIET_MS ? WEBHOOK_POLL_FACTOR : 1,
    stats: () => ({ ...counts, lastDeliveryAt }),
  };
  return receiver;
}
