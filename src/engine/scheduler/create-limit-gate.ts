import {
  type AccountRef,
  type AccountSwitched,
  type AgentRole,
  type AgentRunRequestCommand,
  parkingKey,
} from '../../domain/index.ts';
import type { Clock } from '../engine-config.ts';
import type { RuntimeAdapters } from '../runtime-contract/runtime-contract.ts';
import { type EngineState, UNNAMED_RUNTIME } from '../state-store/engine-state.ts';
import {
  type AccountChoice,
  findNextAvailableAccount,
} from '../state-store/selectors/find-next-available-account.ts';
import { findRuntimeParking } from '../state-store/selectors/find-runtime-parking.ts';

export interface LimitGate {
  /** Until when the command's runtime is parked (its own parking, or every account exhausted); null: free. */
  parkedUntil(command: AgentRunRequestCommand, state: EngineState): number | null;
  /** The account a run admitted now uses, and whether that is a failover; null when its runtime has none. */
  chooseAccount(command: AgentRunRequestCommand, state: EngineState): AccountChoice | null;
  /** The `accountSwitched` event of a run whose chosen account replaces an exhausted one; else null. */
  buildAccountSwitched(
    run: { sessionID: string; command: AgentRunRequestCommand },
    choice: AccountChoice | null,
    state: EngineState,
  ): AccountSwitched | null;
}

const ROLE_OF: Record<AgentRunRequestCommand['type'], AgentRole> = {
  requestPlannerRun: 'planner',
  requestImplementorRun: 'implementor',
  requestReviewerRun: 'reviewer',
};

/**
 * The scheduler's view of provider limits: a run request's runtime is the one its role's adapter names
 * (runs record the same name, and limits park under it), and its account comes from the configured ones.
 */
export function createLimitGate(deps: {
  adapters: RuntimeAdapters;
  accounts: readonly AccountRef[];
  clock: Clock;
}): LimitGate {
  const runtimeOf = (command: AgentRunRequestCommand) =>
    deps.adapters[ROLE_OF[command.type]].runtime ?? UNNAMED_RUNTIME;
  return {
    parkedUntil(command, state) {
      return findRuntimeParking(state, runtimeOf(command), deps.accounts, deps.clock.now())?.until ?? null;
    },
    chooseAccount(command, state) {
      return findNextAvailableAccount(state, runtimeOf(command), deps.accounts, deps.clock.now());
    },
    buildAccountSwitched(run, choice, state) {
      if (choice === null || choice.switchedFrom === null) return null;
      const runtime = runtimeOf(run.command);
      const now = deps.clock.now();
      return {
        type: 'accountSwitched',
        sessionID: run.sessionID,
        runtime,
        from: choice.switchedFrom,
        to: choice.account,
        until: state.parkings[parkingKey(runtime, choice.switchedFrom)]?.until ?? now,
        at: now,
      };
    },
  };
}
