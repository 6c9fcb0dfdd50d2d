/** What the quota manager knows of one rate-limit resource (`core`, `graphql`, …), from the last response. */
export interface GitHubRateLimit {
  limit: number;
  remaining: number;
  used: number;
  /** When the window resets. */
  resetAt: Date;
}

/** For the dashboard and `flotilla doctor`: the budget and what the client did with it. */
export interface GitHubQuotaSnapshot {
  /** The REST (`core`) budget; null until a response carried `x-ratelimit-*` headers. */
  core: GitHubRateLimit | null;
  /** Every request waits until then: a secondary limit's `retry-after`, or an exhausted budget's reset. */
  pausedUntil: Date | null;
  /** HTTP requests sent (retries included). */
  requests: number;
  /** Conditional requests answered 304 Not Modified (free: they do not count against the primary limit). */
  notModified: number;
  /** 403/429 answers for a secondary limit, and for an exhausted primary limit. */
  secondaryLimitHits: number;
  primaryLimitHits: number;
  /** How much slower than configured pollers should poll now (1: as configured); see `pollIntervalFactor`. */
  pollIntervalFactor: number;
}

export interface GitHubQuotaOptions {
  /**
   * Unconditional reads wait for the reset once `remaining` is at or below this, so writes (the engine's
   * actions) and humans' tools keep some budget. Conditional reads still go: a 304 costs nothing.
   */
  reserve?: number;
  /**
   * Writes (anything but GET/HEAD, GraphQL included) start at least this far apart: GitHub asks for a second
   * between content-creating requests. Default 1000 ms.
   */
  writeIntervalMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** One quota manager per token, shared by every caller of the client. */
export interface GitHubQuota {
  /** Resolves when the request may go out (waits out pauses and the reserve). */
  beforeRequest(request: { method: string; conditional: boolean }): Promise<void>;
  /** Reads the response's `x-ratelimit-*` and `retry-after` headers. */
  observe(response: { status: number; headers: Headers }): void;
  snapshot(): GitHubQuotaSnapshot;
  /**
   * 1 while at least half of every budget seen (REST `core`, `graphql`) is left; then 2, 4 and 8 as the
   * scarcest one drains below a half, a quarter and a tenth (1 again once its window resets), so an
   * orchestrator with many open items spreads what is left over the window instead of spending it and
   * stalling. Pollers multiply their interval by it.
   */
  pollIntervalFactor(): number;
}

const DEFAULT_RESERVE = 100;
const DEFAULT_WRITE_INTERVAL_MS = 1000;
/** GitHub's advice when a secondary limit comes without `retry-after`: wait at least a minute. */
const SECONDARY_LIMIT_FALLBACK_MS = 60_000;

export function createGitHubQuota(options: GitHubQuotaOptions = {}): GitHubQuota {
  const reserve = options.reserve ?? DEFAULT_RESERVE;
  const writeIntervalMs = options.writeIntervalMs ?? DEFAULT_WRITE_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const limits = new Map<string, GitHubRateLimit>();
  let pausedUntil = 0;
  let nextWriteAt = 0;
  const counts = { requests: 0, notModified: 0, secondaryLimitHits: 0, primaryLimitHits: 0 };

  function pauseUntil(time: number): void {
    pausedUntil = Math.max(pausedUntil, time);
  }

  return {
    async beforeRequest({ method, conditional }) {
      for (;;) {
        const wait = pausedUntil - now();
        if (wait > 0) {
          await sleep(wait);
          continue;
        }
        const core = limits.get('core');
        const reserved = core !== undefined && core.remaining <= reserve && core.resetAt.getTime() > now();
        if (reserved && method === 'GET' && !conditional) {
          await sleep(core.resetAt.getTime() - now());
          limits.delete('core'); // a new window: the next response tells the budget
          continue;
        }
        if (isWrite(method) && nextWriteAt > now()) {
          await sleep(nextWriteAt - now());
          continue;
        }
        break;
      }
      // Claimed before the request goes out, so concurrent writers queue behind each other.
      if (isWrite(method)) nextWriteAt = now() + writeIntervalMs;
      counts.requests++;
    },

    observe({ status, headers }) {
      if (status === 304) counts.notModified++;
      const limit = readRateLimit(headers);
      if (limit !== null) limits.set(headers.get('x-ratelimit-resource') ?? 'core', limit);
      if (status !== 403 && status !== 429) return;
      const retryAfter = Number(headers.get('retry-after'));
      if (limit !== null && limit.remaining === 0) {
        counts.primaryLimitHits++;
        pauseUntil(limit.resetAt.getTime());
      } else if (Number.isFinite(retryAfter) && retryAfter > 0) {
        counts.secondaryLimitHits++;
        pauseUntil(now() + retryAfter * 1000);
      } else if (status === 429) {
        counts.secondaryLimitHits++;
        pauseUntil(now() + SECONDARY_LIMIT_FALLBACK_MS);
      }
    },

    snapshot() {
      return {
        core: limits.get('core') ?? null,
        pausedUntil: pausedUntil > now() ? new Date(pausedUntil) : null,
        ...counts,
        pollIntervalFactor: this.pollIntervalFactor(),
      };
    },

    pollIntervalFactor() {
      let factor = 1;
      for (const limit of limits.values()) {
        if (limit.resetAt.getTime() <= now() || !(limit.limit > 0)) continue; // a new window: full again
        const left = limit.remaining / limit.limit;
        const wanted = left >= 0.5 ? 1 : left >= 0.25 ? 2 : left >= 0.1 ? 4 : 8;
        factor = Math.max(factor, wanted);
      }
      return factor;
    },
  };
}

function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

function readRateLimit(headers: Headers): GitHubRateLimit | null {
  const remaining = headers.get('x-ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset');
  if (remaining === null || reset === null) return null;
  return {
    limit: Number(headers.get('x-ratelimit-limit') ?? Number.NaN),
    remaining: Number(remaining),
    used: Number(headers.get('x-ratelimit-used') ?? Number.NaN),
    resetAt: new Date(Number(reset) * 1000),
  };
}
