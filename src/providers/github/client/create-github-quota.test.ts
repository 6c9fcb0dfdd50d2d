import { describe, expect, it } from 'vitest';
import { createGitHubQuota, type GitHubQuotaOptions } from './create-github-quota.ts';

/** A clock that only moves when the quota manager sleeps; the sleeps are recorded. */
function fakeClock(start = 1_000_000_000_000) {
  let time = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      time += ms;
    },
    advance: (ms: number) => {
      time += ms;
    },
  };
}

function quotaWith(options: GitHubQuotaOptions = {}) {
  const clock = fakeClock();
  return { clock, quota: createGitHubQuota({ now: clock.now, sleep: clock.sleep, ...options }) };
}

const rateHeaders = (remaining: number, resetAt: number, extra: Record<string, string> = {}) =>
  new Headers({
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-used': String(5000 - remaining),
    'x-ratelimit-reset': String(Math.floor(resetAt / 1000)),
    'x-ratelimit-resource': 'core',
    ...extra,
  });

describe('createGitHubQuota', () => {
  it('starts writes at least writeIntervalMs apart and lets reads through', async () => {
    const { clock, quota } = quotaWith({ writeIntervalMs: 1000 });
    await quota.beforeRequest({ method: 'POST', conditional: false });
    await quota.beforeRequest({ method: 'GET', conditional: false });
    expect(clock.sleeps).toEqual([]);
    clock.advance(300);
    await quota.beforeRequest({ method: 'PATCH', conditional: false });
    expect(clock.sleeps).toEqual([700]);
    await quota.beforeRequest({ method: 'DELETE', conditional: false });
    expect(clock.sleeps).toEqual([700, 1000]);
    expect(quota.snapshot().requests).toBe(4);
  });

  it('reads the budget from x-ratelimit-* and counts 304s', () => {
    const { clock, quota } = quotaWith();
    const resetAt = clock.now() + 3_600_000;
    quota.observe({ status: 200, headers: rateHeaders(4990, resetAt) });
    quota.observe({ status: 304, headers: rateHeaders(4990, resetAt) });
    expect(quota.snapshot()).toMatchObject({
      core: { limit: 5000, remaining: 4990, used: 10, resetAt: new Date(Math.floor(resetAt / 1000) * 1000) },
      notModified: 1,
      pausedUntil: null,
    });
  });

  it('keeps the reserve: unconditional reads wait for the reset, writes and conditional reads go', async () => {
    const { clock, quota } = quotaWith({ reserve: 50, writeIntervalMs: 0 });
    const resetAt = clock.now() + 120_000;
    quota.observe({ status: 200, headers: rateHeaders(50, resetAt) });
    await quota.beforeRequest({ method: 'POST', conditional: false });
    await quota.beforeRequest({ method: 'GET', conditional: true });
    expect(clock.sleeps).toEqual([]);
    await quota.beforeRequest({ method: 'GET', conditional: false });
    expect(clock.sleeps).toEqual([120_000]);
  });

  it('pauses every request for a secondary limit’s retry-after', async () => {
    const { clock, quota } = quotaWith();
    quota.observe({
      status: 403,
      headers: rateHeaders(4000, clock.now() + 3_600_000, { 'retry-after': '7' }),
    });
    expect(quota.snapshot()).toMatchObject({
      secondaryLimitHits: 1,
      pausedUntil: new Date(clock.now() + 7000),
    });
    await quota.beforeRequest({ method: 'GET', conditional: true });
    expect(clock.sleeps).toEqual([7000]);
    expect(quota.snapshot().pausedUntil).toBeNull();
  });

  it('pauses every request until the reset once the primary budget is spent', async () => {
    const { clock, quota } = quotaWith();
    const resetAt = clock.now() + 90_000;
    quota.observe({ status: 403, headers: rateHeaders(0, resetAt) });
    expect(quota.snapshot()).toMatchObject({ primaryLimitHits: 1, secondaryLimitHits: 0 });
    await quota.beforeRequest({ method: 'POST', conditional: false });
    expect(clock.sleeps).toEqual([90_000]);
  });

  it('does not pause for a 403 that is no rate limit (a missing permission)', async () => {
    const { clock, quota } = quotaWith();
    quota.observe({ status: 403, headers: rateHeaders(4000, clock.now() + 3_600_000) });
    await quota.beforeRequest({ method: 'GET', conditional: false });
    expect(clock.sleeps).toEqual([]);
    expect(quota.snapshot()).toMatchObject({ primaryLimitHits: 0, secondaryLimitHits: 0 });
  });
});

describe('createGitHubQuota: polling slows as the budget drains', () => {
  it('asks for 1×, 2×, 4×, 8× the interval as the scarcest budget falls below ½, ¼, 1⁄10', () => {
    const { clock, quota } = quotaWith();
    const resetAt = clock.now() + 3_600_000;
    expect(quota.pollIntervalFactor()).toBe(1);
    const factors = [4000, 2500, 2000, 1250, 600, 499, 0].map((remaining) => {
      quota.observe({ status: 200, headers: rateHeaders(remaining, resetAt) });
      return quota.pollIntervalFactor();
    });
    expect(factors).toEqual([1, 1, 2, 2, 4, 8, 8]);
    // The GraphQL budget counts too: the scarcest decides.
    quota.observe({ status: 200, headers: rateHeaders(4000, resetAt) });
    quota.observe({
      status: 200,
      headers: rateHeaders(1000, resetAt, { 'x-ratelimit-resource': 'graphql' }),
    });
    expect(quota.snapshot().pollIntervalFactor).toBe(4);
    // Once the window resets the budget is whole again.
    clock.advance(3_600_000);
    expect(quota.pollIntervalFactor()).toBe(1);
  });
});
