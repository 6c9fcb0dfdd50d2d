import type { LimitReason } from './agent-run.ts';

/**
 * A runtime (`account` null) or one of its accounts that must not start runs before `until`, because the
 * provider refused a run with a rate, overload or usage limit. Kept in the engine state and in SQLite, so a
 * restart (even after kill -9) keeps waiting until the same time.
 */
export interface RuntimeParking {
  /** `parkingKey(runtime, account)`. */
  key: string;
  runtime: string;
  account: string | null;
  reason: LimitReason;
  /** Epoch milliseconds when runs may start again. */
  until: number;
  /** Epoch milliseconds of the limit that parked it. */
  since: number;
  /** Limits in a row on this key without a run completing in between (the backoff's exponent). */
  hits: number;
  /** The provider's words, shortened, for the dashboard and logs. */
  message: string;
}

/** A configured credential profile as the engine sees it: a name and its runtime, never the variables. */
export interface AccountRef {
  name: string;
  runtime: string;
}

export function parkingKey(runtime: string, account: string | null): string {
  return account === null ? runtime : `${runtime}/account:${account}`;
}

/** Without a reset time from the provider: 1 min, 2, 4 … capped at an hour. */
export const LIMIT_BACKOFF_BASE_MS = 60_000;
export const LIMIT_BACKOFF_MAX_MS = 3_600_000;

export function computeLimitBackoff(hits: number): number {
  return Math.min(LIMIT_BACKOFF_MAX_MS, LIMIT_BACKOFF_BASE_MS * 2 ** Math.max(0, hits - 1));
}

/** Who a limit parks: a usage or rate limit is the account's quota; an overload is the provider's. */
export function isAccountLimit(reason: LimitReason): boolean {
  return reason !== 'overloaded';
}

const REASON_LABEL: Record<LimitReason, string> = {
  'rate-limit': 'rate limit',
  overloaded: 'overloaded',
  'usage-limit': 'usage limit',
};

export function describeLimitReason(reason: LimitReason): string {
  return REASON_LABEL[reason];
}

/**
 * "claude parked until 14:05 (usage limit)", or for an account "claude account work exhausted until 14:05
 * (usage limit)"; `formatTime` renders the time (the dashboard: local HH:MM; progress lines: their clock).
 */
export function describeParking(parking: RuntimeParking, formatTime: (epochMs: number) => string): string {
  const who =
    parking.account === null
      ? `${parking.runtime} parked`
      : `${parking.runtime} account ${parking.account} exhausted`;
  return `${who} until ${formatTime(parking.until)} (${describeLimitReason(parking.reason)})`;
}
