import { describe, expect, it } from 'vitest';
import { createCircuitBreaker, GitHubUnavailableError } from './create-circuit-breaker.ts';

describe('createCircuitBreaker', () => {
  it('opens after the threshold, fails fast, lets one probe through after the cool-down', () => {
    let time = 0;
    const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 1000, now: () => time });
    for (let index = 0; index < 2; index++) {
      breaker.beforeRequest();
      breaker.recordFailure('502 on GET /x');
    }
    breaker.recordSuccess(); // not in a row any more
    for (let index = 0; index < 3; index++) {
      breaker.beforeRequest();
      breaker.recordFailure('502 on GET /x');
    }
    expect(breaker.snapshot()).toMatchObject({
      state: 'open',
      consecutiveFailures: 3,
      retryAt: new Date(1000),
    });
    expect(() => breaker.beforeRequest()).toThrow(GitHubUnavailableError);
    expect(() => breaker.beforeRequest()).toThrow(/3 requests in a row failed \(last: 502 on GET \/x\)/);
    time = 1000;
    breaker.beforeRequest(); // the probe
    expect(breaker.snapshot().state).toBe('half-open');
    expect(() => breaker.beforeRequest()).toThrow(GitHubUnavailableError); // while the probe is out
    breaker.recordFailure('503 on GET /x');
    // A failed probe: open again, twice as long.
    expect(breaker.snapshot()).toMatchObject({ state: 'open', retryAt: new Date(3000) });
    time = 3000;
    breaker.beforeRequest();
    breaker.recordSuccess();
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 0, retryAt: null });
    breaker.beforeRequest();
  });
});
