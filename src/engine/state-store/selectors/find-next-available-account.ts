import { type AccountRef, parkingKey } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

export interface AccountChoice {
  account: string;
  /** The account the runtime used last, when it is exhausted and this choice replaces it (a failover). */
  switchedFrom: string | null;
}

/**
 * The account a new run of `runtime` uses at `now`: the one it used last while that one is available (runs
 * stay on one account), otherwise `findNextAvailable` (docs/runtime-spec.md §Accounts and failover) — the least recently used account that is
 * not exhausted (never used counts as oldest; ties keep config order). Null when the runtime has no
 * accounts or all are exhausted (then `findRuntimeParking` says until when). Last use is
 * `state.accountsLastUsed`, which a restart restores from the run history.
 */
export function findNextAvailableAccount(
  state: Pick<EngineState, 'parkings' | 'accountsLastUsed'>,
  runtime: string,
  accounts: readonly AccountRef[],
  now: number,
): AccountChoice | null {
  const mine = accounts.filter((account) => account.runtime === runtime);
  if (mine.length === 0) return null;
  const usedAt = (name: string) => state.accountsLastUsed[name] ?? -1;
  let current: string | null = null;
  for (const account of mine) {
    if (usedAt(account.name) >= 0 && (current === null || usedAt(account.name) > usedAt(current)))
      current = account.name;
  }
  const isAvailable = (name: string) => {
    const parking = state.parkings[parkingKey(runtime, name)];
    return parking === undefined || parking.until <= now;
  };
  if (current !== null && isAvailable(current)) return { account: current, switchedFrom: null };
  let best: string | null = null;
  for (const account of mine) {
    if (!isAvailable(account.name)) continue;
    if (best === null || usedAt(account.name) < usedAt(best)) best = account.name;
  }
  if (best === null) return null;
  return { account: best, switchedFrom: current };
}
