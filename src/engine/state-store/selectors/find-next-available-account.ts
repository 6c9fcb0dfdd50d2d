import { type AccountRef, parkingKey } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

export interface AccountChoice {
  account: string;
  /** The account the runtime used last, when it is exhausted and this choice replaces it (a failover). */
  switchedFrom: string | null;
}

/**
 * The account a new run of `runtime` uses at `now`: the one it used last while that one is available (runs
 * stay on one account), otherwise seed 002's `findNextAvailable` — the least recently used account that is
 * not exhausted (never used counts as oldest; ties keep config order). Null when the runtime has no
 * accounts or all are exhausted (then `findRuntimeParking` says until when).
 */
export function findNextAvailableAccount(
  state: Pick<EngineState, 'parkings' | 'agentRuns'>,
  runtime: string,
  accounts: readonly AccountRef[],
  now: number,
): AccountChoice | null {
  const mine = accounts.filter((account) => account.runtime === runtime);
  if (mine.length === 0) return null;
  const names = new Set(mine.map((account) => account.name));
  const lastUsed = new Map<string, number>();
  let current: string | null = null;
  let currentAt = Number.NEGATIVE_INFINITY;
  for (const run of Object.values(state.agentRuns)) {
    if (run.account === undefined || !names.has(run.account)) continue;
    lastUsed.set(run.account, Math.max(lastUsed.get(run.account) ?? 0, run.requestedAt));
    if (run.requestedAt > currentAt) {
      current = run.account;
      currentAt = run.requestedAt;
    }
  }
  const isAvailable = (name: string) => {
    const parking = state.parkings[parkingKey(runtime, name)];
    return parking === undefined || parking.until <= now;
  };
  if (current !== null && isAvailable(current)) return { account: current, switchedFrom: null };
  let best: { name: string; usedAt: number } | null = null;
  for (const account of mine) {
    if (!isAvailable(account.name)) continue;
    const usedAt = lastUsed.get(account.name) ?? -1;
    if (best === null || usedAt < best.usedAt) best = { name: account.name, usedAt };
  }
  if (best === null) return null;
  return { account: best.name, switchedFrom: current };
}
