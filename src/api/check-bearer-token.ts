import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization` header carries `Bearer <expected>`. Both sides are hashed first so the
 * constant-time compare sees equal lengths and the token's length does not leak through timing.
 */
export function checkBearerToken(header: string | undefined, expected: string): boolean {
  const match = header === undefined ? null : /^Bearer (.+)$/.exec(header);
  const given = match?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected)) && match !== null;
}
