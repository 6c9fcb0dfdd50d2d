import { describe, expect, it } from 'vitest';
import { resolveModeLimits } from './mode-limits.ts';

describe('resolveModeLimits', () => {
  it("gives a mode the seed's default timeout, never past maxAgentDuration; a configured one replaces both", () => {
    expect(resolveModeLimits('implement', undefined, 1800)).toEqual({
      defaultMaxTurns: 200,
      timeoutSeconds: 600,
    });
    expect(resolveModeLimits('plan', undefined, 120)).toEqual({ defaultMaxTurns: 100, timeoutSeconds: 120 });
    expect(resolveModeLimits('plan', { timeout: 3600, maxTurns: 7 }, 120)).toEqual({
      maxTurns: 7,
      defaultMaxTurns: 100,
      timeoutSeconds: 3600,
    });
  });

  it('sets no timeout for a mode without a default when no maxAgentDuration is configured', () => {
    // A review has no default timeout: the runtime's own limit stands (never an endless number of seconds).
    expect(resolveModeLimits('review', undefined, undefined)).toEqual({ defaultMaxTurns: 50 });
    expect(resolveModeLimits('review', undefined, 900)).toEqual({ defaultMaxTurns: 50, timeoutSeconds: 900 });
    expect(resolveModeLimits('implement', undefined, undefined)).toEqual({
      defaultMaxTurns: 200,
      timeoutSeconds: 600,
    });
  });
});
