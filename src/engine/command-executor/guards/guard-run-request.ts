import type { AgentRunRequestCommand } from '../../../domain/index.ts';
import { isAgentRunActive } from '../../../domain/index.ts';
import { isAutoRefineWaitStatus } from '../../handlers/is-auto-refine-run.ts';
import { buildDispatchKey } from '../../state-store/dispatch-key.ts';
import type { EngineState } from '../../state-store/engine-state.ts';
import type { CommandExecutorDeps } from '../command-executor-deps.ts';
import type { GuardVerdict } from './guard-verdict.ts';

function hasActiveRunForWorkItem(state: EngineState, workItemID: string): boolean {
  return Object.values(state.agentRuns).some(
    (run) => run.role !== 'planner' && run.workItemID === workItemID && isAgentRunActive(run),
  );
}

function hasActivePlanner(state: EngineState): boolean {
  return Object.values(state.agentRuns).some((run) => run.role === 'planner' && isAgentRunActive(run));
}

/**
 * One planner at a time, one run (of any role) per work item; implementors take only `ready` task items
 * (an automatic refinement: an item in needs-refinement, or a pending `task:refinement` item),
 * reviewers only items in `review` with a known revision. Duplicate checks see the snapshot AND runs admitted
 * earlier in this burst (not yet in the store), through the scheduler.
 */
export function guardRunRequest(
  command: AgentRunRequestCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'scheduler'>,
): GuardVerdict {
  const { scheduler } = deps;
  if (command.type === 'requestPlannerRun') return guardPlannerRequest(command, state, deps);
  const item = state.workItems[command.workItemID];
  if (hasActiveRunForWorkItem(state, command.workItemID) || scheduler.isWorkItemActive(command.workItemID)) {
    return { ok: false, kind: 'duplicate', reason: 'agent already running for work item' };
  }
  if (!item) return { ok: false, kind: 'invalid', reason: `work item #${command.workItemID} is not known` };
  if (command.resume !== undefined) {
    // A resume continues the waiting session, and only that one.
    const waiting = state.waitingForInput[item.id];
    if (item.status !== 'waiting-for-input' || waiting?.sessionID !== command.resume.waiting.sessionID) {
      return {
        ok: false,
        kind: 'invalid',
        reason: `#${item.id} is ${item.status}, not waiting for this answer`,
      };
    }
    return { ok: true };
  }
  if (command.type === 'requestImplementorRun' && command.mode === 'refine') {
    // An automatic refinement (issue #29): the item waits where it is while it runs.
    if ((item.kind !== 'task' && item.kind !== 'refinement') || !isAutoRefineWaitStatus(item, item.status)) {
      return {
        ok: false,
        kind: 'invalid',
        reason: `#${item.id} is a ${item.kind} item in ${item.status}; only one in needs-refinement (or a pending task:refinement item) is refined on its own`,
      };
    }
    return { ok: true };
  }
  if (command.type === 'requestImplementorRun') {
    if (item.kind !== 'task') {
      return {
        ok: false,
        kind: 'invalid',
        reason: `#${item.id} is a ${item.kind} item; implementors never take those`,
      };
    }
    if (item.status !== 'ready') {
      return { ok: false, kind: 'invalid', reason: `#${item.id} is ${item.status}, not ready` };
    }
    return { ok: true };
  }
  if (item.status !== 'review') {
    return { ok: false, kind: 'invalid', reason: `#${item.id} is ${item.status}, not in review` };
  }
  if (!state.revisions[command.revisionID]) {
    return { ok: false, kind: 'invalid', reason: `revision ${command.revisionID} is not known` };
  }
  return { ok: true };
}

/** One planner at a time; a planner waiting for answers is the one planning; a resume only while it waits. */
function guardPlannerRequest(
  command: Extract<AgentRunRequestCommand, { type: 'requestPlannerRun' }>,
  state: EngineState,
  { scheduler }: Pick<CommandExecutorDeps, 'scheduler'>,
): GuardVerdict {
  if (hasActivePlanner(state) || scheduler.isKeyActive(buildDispatchKey(command))) {
    return { ok: false, kind: 'duplicate', reason: 'planner already running' };
  }
  // A planner waiting for answers is the one planning: only its own resume plans (no second planner).
  const waiting = Object.values(state.waitingForInput).find((entry) => entry.role === 'planner');
  if (command.resume === undefined && waiting !== undefined) {
    return {
      ok: false,
      kind: 'duplicate',
      reason: `a planner waits for answers on #${waiting.workItemID}`,
    };
  }
  if (command.resume !== undefined) {
    const item = state.workItems[command.resume.waiting.workItemID];
    if (item?.status !== 'waiting-for-input' || waiting?.sessionID !== command.resume.waiting.sessionID) {
      return {
        ok: false,
        kind: 'invalid',
        reason: `#${command.resume.waiting.workItemID} is ${item?.status ?? 'unknown'}, not waiting for this answer`,
      };
    }
  }
  if (command.specPaths.length === 0) return { ok: false, kind: 'invalid', reason: 'no specs to plan' };
  return { ok: true };
}
