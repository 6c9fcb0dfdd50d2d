export interface CircuitBreakerOptions {
  /** Consecutive failures (5xx answers, network errors) that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long an open circuit fails requests fast before one probe may go. Default 30 s; doubles per failed probe, up to 8×. */
  cooldownMs?: number;
  now?: () => number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitSnapshot {
  state: CircuitState;
  consecutiveFailures: number;
  /** While open: when the next probe may go. */
  retryAt: Date | null;
  /** The last failure, e.g. `502 on GET /repos/acme/widgets/issues`. */
  lastFailure: string | null;
}

/** Thrown instead of sending a request while the circuit is open (or its probe is in flight). */
export class GitHubUnavailableError extends Error {
  constructor(snapshot: CircuitSnapshot) {
    super(
      `GitHub is unavailable: ${snapshot.consecutiveFailures} requests in a row failed (last: ${snapshot.lastFailure ?? 'unknown'}); requests fail fast until ${snapshot.retryAt?.toISOString() ?? 'the probe answers'}, then one probe is sent`,
    );
    this.name = 'GitHubUnavailableError';
  }
}

export interface CircuitBreaker {
  /** Throws GitHubUnavailableError when the request must not go; lets one probe through once the cool-down is over. */
  beforeRequest(): void;
  /** An answer below 500: GitHub is there. */
  recordSuccess(): void;
  /** A 5xx answer or a network error. */
  recordFailure(description: string): void;
  snapshot(): CircuitSnapshot;
}

const DEFAULT_THRESHOLD = 5;
const DEFAULT_COOLDOWN_MS = 30_000;
const MAX_COOLDOWN_FACTOR = 8;

/**
 * A circuit breaker in front of GitHub: after `failureThreshold` failures in a row, requests fail at once
 * with a clear error instead of each waiting out its retries against a server that is down; after the
 * cool-down one probe goes (half-open): an answer closes the circuit, a failure opens it for twice as long.
 */
export function createCircuitBreaker(options: CircuitBreakerOptions = {}): CircuitBreaker {
  const threshold = options.failureThreshold ?? DEFAULT_THRESHOLD;
  const cooldownMs = options.cooldownMs ?? DEFAULT_COOLDOWN_MS;
  const now = options.now ?? Date.now;
  let state: CircuitState = 'closed';
  let failures = 0;
  let retryAt = 0;
  let cooldownFactor = 1;
  let lastFailure: string | null = null;

  const snapshot = (): CircuitSnapshot => ({
    state,
    consecutiveFailures: failures,
    retryAt: state === 'closed' ? null : new Date(retryAt),
    lastFailure,
  });

  function open(): void {
    state = 'open';
    retryAt = now() + cooldownMs * cooldownFactor;
  }

  return {
    beforeRequest() {
      if (state === 'closed') return;
      if (state === 'open' && now() >= retryAt) {
        state = 'half-open'; // this request is the probe; others fail fast until it answers
        return;
      }
      throw new GitHubUnavailableError(snapshot());
    },
    recordSuccess() {
      state = 'closed';
      failures = 0;
      cooldownFactor = 1;
    },
    recordFailure(description) {
      failures++;
      lastFailure = description;
      if (state === 'half-open') {
        cooldownFactor = Math.min(cooldownFactor * 2, MAX_COOLDOWN_FACTOR);
        open();
      } else if (state === 'closed' && failures >= threshold) {
        open();
      }
    },
    snapshot,
  };
}
