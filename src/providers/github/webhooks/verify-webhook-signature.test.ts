import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookSignature } from './verify-webhook-signature.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('verifyWebhookSignature (docs/github-webhooks.md §Signature)', () => {
  it("accepts GitHub's documented example: secret, payload and X-Hub-Signature-256", () => {
    // The test values GitHub publishes for validating an implementation (docs/github-webhooks.md).
    const header = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    expect(verifyWebhookSignature(bytes('Hello, World!'), header, "It's a Secret to Everybody")).toBe('ok');
    expect(signWebhookBody('Hello, World!', "It's a Secret to Everybody")).toBe(header);
  });

  it('refuses a missing header, another scheme, a wrong secret and a changed body', () => {
    const body = bytes('{"zen":"Keep it logically awesome."}');
    const good = signWebhookBody(body, 's3cret');
    expect(verifyWebhookSignature(body, good, 's3cret')).toBe('ok');
    expect(verifyWebhookSignature(body, undefined, 's3cret')).toBe('missing');
    expect(verifyWebhookSignature(body, '', 's3cret')).toBe('missing');
    // The SHA-1 header GitHub also sends for compatibility is not accepted in its place.
    expect(verifyWebhookSignature(body, good.replace('sha256=', 'sha1='), 's3cret')).toBe('malformed');
    expect(verifyWebhookSignature(body, `${good}00`, 's3cret')).toBe('malformed');
    expect(verifyWebhookSignature(body, good, 'other')).toBe('mismatch');
    expect(verifyWebhookSignature(bytes('{"zen":"changed"}'), good, 's3cret')).toBe('mismatch');
  });

  it('refuses to verify without a secret (fails closed)', () => {
    expect(() => verifyWebhookSignature(bytes('{}'), 'sha256=00', '')).toThrow(/secret is required/);
  });
});
