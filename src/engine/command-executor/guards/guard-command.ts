import type { EngineCommand } from '../../../domain/index.ts';
import type { EngineState } from '../../state-store/engine-state.ts';
import type { CommandExecutorDeps } from '../command-executor-deps.ts';
import { guardMerge } from './guard-merge.ts';
import { guardRunRequest } from './guard-run-request.ts';
import { guardTransition } from './guard-transition.ts';
import type { GuardVerdict } from './guard-verdict.ts';

/**
 * The checks every command passes before the policy and any write: run requests, transitions and merges
 * are checked against the snapshot; every other command passes.
 */
export function guardCommand(
  command: EngineCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'scheduler' | 'revisionWriter'>,
): GuardVerdict {
  switch (command.type) {
    case 'requestPlannerRun':
    case 'requestImplementorRun':
    case 'requestReviewerRun':
      return guardRunRequest(command, state, deps);
    case 'transitionWorkItemStatus':
      return guardTransition(command, state);
    case 'mergeRevision':
      return guardMerge(command, state, deps);
    default:
      return { ok: true };
  }
}
