import {
  type AccountRef,
  type AccountSwitched,
  type AgentRole,
  type AgentRunRequestCommand,
  parkingKey,
} from '../../domain/index.ts';
import { findRunAdapter } from '../command-executor/choose-runtime-adapter.ts';
import type { Clock } from '../engine-config.ts';
import type { RuntimeAdapters } from '../runtime-contract/runtime-contract.ts';
import { type EngineState, UNNAMED_RUNTIME } from '../state-store/engine-state.ts';
import {
  type AccountChoice,
  findNextAvailableAccount,
} from '../state-store/selectors/find-next-available-account.ts';
import { findRuntimeParking } from '../state-store/selectors/find-runtime-parking.ts';

export interface LimitGate {
  /** The runtime a run of this command starts on (its item's `runtime:` label, else the role's). */
  runtimeOf(command: AgentRunRequestCommand, state: EngineState): string;
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
 * The scheduler's view of provider limits: a run request's runtime is the one the run would start on — its
 * work item's `runtime:<name>` label's, else its role's (runs record the same name, and limits park under
 * it) — and its account comes from the ones configured for that runtime.
 */
export function createLimitGate(deps: {
  adapters: RuntimeAdapters;
  accounts: readonly AccountRef[];
  clock: Clock;
}): LimitGate {
  const runtimeOf = (command: AgentRunRequestCommand, state: EngineState) => {
    const role = ROLE_OF[command.type];
    const workItemID = command.type === 'requestPlannerRun' ? null : command.workItemID;
    // A label naming no runtime is refused at start; until then it counts as the role's runtime.
    const adapter = findRunAdapter(role, workItemID, state, deps.adapters) ?? deps.adapters[role];
    return adapter.runtime ?? UNNAMED_RUNTIME;
  };
  return {
    runtimeOf,
    parkedUntil(command, state) {
      return (
        findRuntimeParking(state, runtimeOf(command, state), deps.accounts, deps.clock.now())?.until ?? null
      );
    },
    chooseAccount(command, state) {
      return findNextAvailableAccount(state, runtimeOf(command, state), deps.accounts, deps.clock.now());
    },
    buildAccountSwitched(run, choice, state) {
      if (choice === null || choice.switchedFrom === null) return null;
      const runtime = runtimeOf(run.command, state);
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
