import type {
  AgentRun,
  CancelImplementorRun,
  CancelPlannerRun,
  CancelReviewerRun,
  EngineEvent,
} from '../../domain/index.ts';
import { isAgentRunActive } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

export type CancelAgentRunCommand = CancelPlannerRun | CancelImplementorRun | CancelReviewerRun;

function isTargetOf(command: CancelAgentRunCommand, run: AgentRun): boolean {
  switch (command.type) {
    case 'cancelPlannerRun':
      return run.role === 'planner';
    case 'cancelImplementorRun':
      return run.role === 'implementor' && run.workItemID === command.workItemID;
    case 'cancelReviewerRun':
      return run.role === 'reviewer' && run.workItemID === command.workItemID;
  }
}

/**
 * Asks the run registry to end the active run the command names (none active: nothing happens). Returns no
 * event: the run's own `*Failed` (reason `cancelled`) reports the end.
 */
export function cancelAgentRun(
  command: CancelAgentRunCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'registry'>,
): EngineEvent[] {
  const run = Object.values(state.agentRuns).find((r) => isTargetOf(command, r) && isAgentRunActive(r));
  if (run) deps.registry.cancel(run.sessionID, 'cancelled');
  return [];
}
