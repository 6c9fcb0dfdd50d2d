import type { ApplyPlannerResult, EngineEvent } from '../../domain/index.ts';
import { messageOf } from '../../shared/message-of.ts';
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
 */
export async function applyPlannerResult(
  command: ApplyPlannerResult,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const { workItemWriter, clock } = deps;
  const { result } = command;
  const known = new Set(Object.keys(state.workItems));
  const ordered = orderPlannedCreates(result.create, known);
  if (!ordered.ok) throw new Error(`planner result rejected, nothing written: ${ordered.error}`);
  for (const id of [...result.close, ...result.update.map((u) => u.workItemID)]) {
    if (!known.has(id))
      throw new Error(`planner result rejected, nothing written: work item #${id} is not known`);
  }
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
  return events;
}
