import { type AccountRef, parkingKey, type RuntimeParking } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/**
 * What holds a runtime back at `now`: its own parking (an overload, or a limit on a runtime without
 * accounts), else — when it has accounts — all of them exhausted, reported as the one that resets first.
 * Null when a run may start.
 */
export function findRuntimeParking(
  state: Pick<EngineState, 'parkings'>,
  runtime: string,
  accounts: readonly AccountRef[],
  now: number,
): RuntimeParking | null {
  const own = state.parkings[parkingKey(runtime, null)];
  if (own !== undefined && own.until > now) return own;
  const mine = accounts.filter((account) => account.runtime === runtime);
  if (mine.length === 0) return null;
  let earliest: RuntimeParking | null = null;
  for (const account of mine) {
    const parking = state.parkings[parkingKey(runtime, account.name)];
    if (parking === undefined || parking.until <= now) return null;
    if (earliest === null || parking.until < earliest.until) earliest = parking;
  }
  return earliest;
}
