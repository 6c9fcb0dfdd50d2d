import { describe, expect, it } from 'vitest';
import { createCachedCheck } from './create-cached-check.ts';

describe('createCachedCheck', () => {
  it('runs the check once per ttl and again once it has passed', () => {
    let clock = 1_000;
    let calls = 0;
    const cached = createCachedCheck(() => ++calls, { ttlMs: 100, now: () => clock });
    expect([cached(), cached(), cached()]).toEqual([1, 1, 1]);
    clock += 99;
    expect(cached()).toBe(1);
    clock += 1;
    expect(cached()).toBe(2);
    expect(calls).toBe(2);
  });
});
