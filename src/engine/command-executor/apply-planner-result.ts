import type { ApplyPlannerResult, EngineEvent } from '../../domain/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import { findPlannerResultSchemaError } from '../runtime-contract/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { orderPlannedCreates } from './order-planned-creates.ts';
import { transitionWorkItem } from './transition-work-item.ts';

/**
 * Where a planner's result becomes work items. Validated first, and nothing is written when it fails (a
 * `blockedBy` that names neither a tempID in this result nor a known item, a cycle, a close or update of an
 * unknown item: thrown → commandFailed). Then the creates, blockers first with tempIDs resolved to the new
 * ids (see `order-planned-creates.ts`), then the closes, then the updates. A write that fails part way
 * returns what was written along with a commandFailed, so the store does not lose it.
 * A planner that ran on after a human's answers has its `questions` item closed afterwards, with a comment
 * saying what was created (or why nothing was); an accepted proposal's item likewise (issue #29).
 */
export async function applyPlannerResult(
  command: ApplyPlannerResult,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const { questionsItemID, proposalID } = command;
  const trackingItemID = proposalID ?? questionsItemID;
  if (trackingItemID === undefined) return applyResult(command, state, deps);
  const say = proposalID !== undefined ? acceptedProposalComment : plannerDoneComment;
  let events: EngineEvent[];
  try {
    events = await applyResult(command, state, deps);
  } catch (error) {
    // The rejection is what matters; a failing close must not hide it.
    await closeTrackingItem(
      trackingItemID,
      state,
      deps,
      say(`its result was rejected: ${messageOf(error)}`),
    ).catch(() => null);
    throw error;
  }
  const created = events.flatMap((event) =>
    event.type === 'workItemChanged' && event.oldStatus === null ? [`#${event.workItemID}`] : [],
  );
  const failed = events.find((event) => event.type === 'commandFailed');
  const outcome =
    (created.length > 0 ? `it created ${created.join(', ')}` : 'it created no work items') +
    (failed?.type === 'commandFailed' ? ` before a write failed: ${failed.error}` : '');
  // The planner may have closed the item itself (it sees every item).
  const closedByPlanner = events.some(
    (event) => event.type === 'workItemChanged' && event.workItemID === trackingItemID,
  );
  const closed = await closeTrackingItem(trackingItemID, state, deps, say(outcome), !closedByPlanner);
  return closed === null ? events : [...events, closed];
}

/**
 * Comments on a questions or proposal item and closes it; its workItemChanged, or null when there is nothing
 * to close.
 */
export async function closeTrackingItem(
  workItemID: string,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter'>,
  comment: string,
  close = true,
): Promise<EngineEvent | null> {
  const item = state.workItems[workItemID];
  if (item === undefined || item.status === 'closed') return null;
  await deps.workItemWriter.addComment(workItemID, comment);
  return close ? transitionWorkItem(item, 'closed', deps) : null;
}

/** Marks the engine's closing comment on a questions item (never read as an answer). */
const PLANNER_DONE_MARKER = '<!-- flotilla:planner-done -->';
/** Marks the engine's closing comment on an accepted proposal's item (never read as a decision). */
const PROPOSAL_DONE_MARKER = '<!-- flotilla:proposal-applied -->';

function plannerDoneComment(outcome: string): string {
  return `${PLANNER_DONE_MARKER}\nThe planner finished with your answers: ${outcome}. Closing these questions.`;
}

function acceptedProposalComment(outcome: string): string {
  return `${PROPOSAL_DONE_MARKER}\nThe plan was accepted and applied: ${outcome}. Closing this proposal.`;
}

/**
 * Why a planner result cannot be applied as a whole, or null: a `blockedBy` naming neither a tempID in it
 * nor a known item, a cycle, a close or update of an unknown item. Also what a proposal is checked with.
 */
export function findPlannerResultError(
  result: ApplyPlannerResult['result'],
  state: EngineState,
): string | null {
  // A plan edited by a human (`accept --edit`) is checked again, as the planner's was.
  const invalidShape = findPlannerResultSchemaError(result);
  if (invalidShape !== null) return invalidShape;
  const known = new Set(Object.keys(state.workItems));
  const ordered = orderPlannedCreates(result.create, known);
  if (!ordered.ok) return ordered.error;
  for (const id of [...result.close, ...result.update.map((u) => u.workItemID)]) {
    if (!known.has(id)) return `work item #${id} is not known`;
  }
  return null;
}

async function applyResult(
  command: ApplyPlannerResult,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const { workItemWriter, clock } = deps;
  const { result } = command;
  const invalid = findPlannerResultError(result, state);
  if (invalid !== null) throw new Error(`planner result rejected, nothing written: ${invalid}`);
  const ordered = orderPlannedCreates(result.create, new Set(Object.keys(state.workItems)));
  if (!ordered.ok) throw new Error(`planner result rejected, nothing written: ${ordered.error}`);
  const events: EngineEvent[] = [];
  try {
    const realIDs = new Map<string, string>();
    for (const create of ordered.order) {
      const created = await workItemWriter.createWorkItem({
        title: create.title,
        body: create.body,
        labels: create.labels,
        blockedBy: create.blockedBy.map((ref) => realIDs.get(ref) ?? ref),
      });
      realIDs.set(create.tempID, created.id);
      events.push(buildWorkItemChanged(created, null));
    }
    for (const id of result.close) {
      const item = state.workItems[id];
      if (!item || item.status === 'closed') continue;
      events.push(await transitionWorkItem(item, 'closed', deps));
    }
    for (const update of result.update) {
      await workItemWriter.updateWorkItem(update.workItemID, { body: update.body, labels: update.labels });
    }
  } catch (error) {
    // What was written is real: report it along with the failure so the store does not lose it.
    events.push({ type: 'commandFailed', command, error: messageOf(error), at: clock.now() });
  }
  const applied = describeApplied(command, events, clock.now());
  return applied === null ? events : [...events, applied];
}

/**
 * The `planApplied` of a planner run's result (issue #28 §1), after what was written: the items created
 * (with their titles) and updated, for their `plan_summary` entries; null when nothing was, or the result is
 * no run's (an investigation's fix items).
 */
function describeApplied(command: ApplyPlannerResult, events: EngineEvent[], at: number): EngineEvent | null {
  if (command.sessionID === undefined) return null;
  const created = events.flatMap((event) =>
    event.type === 'workItemChanged' && event.oldStatus === null && event.workItem !== null
      ? [{ workItemID: event.workItemID, title: event.workItem.title }]
      : [],
  );
  const failed = events.some((event) => event.type === 'commandFailed');
  const updatedIDs = failed ? [] : command.result.update.map((update) => update.workItemID);
  if (created.length === 0 && updatedIDs.length === 0) return null;
  const summary = command.result.summary?.trim() ?? '';
  return {
    type: 'planApplied',
    sessionID: command.sessionID,
    summary: summary === '' ? null : summary,
    created,
    updatedIDs,
    at,
  };
}
