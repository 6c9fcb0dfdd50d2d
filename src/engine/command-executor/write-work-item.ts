import type {
  CommentOnWorkItem,
  CreateWorkItem,
  EngineEvent,
  TransitionWorkItemStatus,
  UpdateWorkItem,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { transitionWorkItem } from './transition-work-item.ts';

export type WorkItemWriteCommand =
  | TransitionWorkItemStatus
  | CreateWorkItem
  | UpdateWorkItem
  | CommentOnWorkItem;

/**
 * The plain work item writes, one provider call each. A transition or a create returns its workItemChanged
 * (a transition to the current status writes nothing); updates and comments return no event, the next
 * poll shows them.
 */
export async function writeWorkItem(
  command: WorkItemWriteCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter'>,
): Promise<EngineEvent[]> {
  const { workItemWriter } = deps;
  switch (command.type) {
    case 'transitionWorkItemStatus': {
      // The guard has checked that the item is known.
      const item = state.workItems[command.workItemID]!;
      if (item.status === command.newStatus) return [];
      return [await transitionWorkItem(item, command.newStatus, deps)];
    }
    case 'createWorkItem': {
      const { type: _type, ...input } = command;
      return [buildWorkItemChanged(await workItemWriter.createWorkItem(input), null)];
    }
    case 'updateWorkItem':
      await workItemWriter.updateWorkItem(command.workItemID, {
        body: command.body,
        labels: command.labels,
      });
      return [];
    case 'commentOnWorkItem':
      await workItemWriter.addComment(command.workItemID, command.body);
      return [];
  }
}
