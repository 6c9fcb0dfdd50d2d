import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a delivery's signature was refused (never what it was, nor the secret). */
export type SignatureVerdict = 'ok' | 'missing' | 'malformed' | 'mismatch';

/**
 * GitHub's `X-Hub-Signature-256` check (docs/github-webhooks.md §Signature): the header is `sha256=` and
 * the lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the webhook's secret. Compared in constant
 * time (`timingSafeEqual` over the two 32-byte digests), never as strings.
 */
export function verifyWebhookSignature(
  body: Uint8Array,
  header: string | undefined,
  secret: string,
): SignatureVerdict {
  if (secret === '') throw new Error('a webhook secret is required to verify deliveries');
  if (header === undefined || header === '') return 'missing';
  const match = /^sha256=([0-9a-f]{64})$/.exec(header.trim());
  if (match === null) return 'malformed';
  const given = Buffer.from(match[1] as string, 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}

/** The header value GitHub would send for `body` (the fake GitHub signs its deliveries with it). */
export function signWebhookBody(body: Uint8Array | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
