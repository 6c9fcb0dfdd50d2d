import type {
  CommentOnRevision,
  CreateRevisionFromPatch,
  EngineEvent,
  PostRevisionReview,
  UpdateRevision,
  UpdateRevisionReview,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildRevisionChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

export type RevisionWriteCommand =
  | CreateRevisionFromPatch
  | UpdateRevision
  | PostRevisionReview
  | UpdateRevisionReview
  | CommentOnRevision;

/**
 * The plain revision writes, one provider call each. Creating a revision or posting/replacing its review
 * returns the revisionChanged; body updates and comments return no event.
 */
export async function writeRevision(
  command: RevisionWriteCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'revisionWriter'>,
): Promise<EngineEvent[]> {
  const { revisionWriter } = deps;
  switch (command.type) {
    case 'createRevisionFromPatch': {
      const item = state.workItems[command.workItemID];
      const revision = await revisionWriter.createFromPatch({
        workItemID: command.workItemID,
        patch: command.patch,
        branchName: command.branchName,
        title: item?.title ?? `Work item #${command.workItemID}`,
        body: command.body,
        ...(command.base !== undefined && { base: command.base }),
      });
      return [buildRevisionChanged(revision, state.revisions[revision.id])];
    }
    case 'updateRevision':
      await revisionWriter.updateBody(command.revisionID, command.body);
      return [];
    case 'postRevisionReview': {
      const reviewID = await revisionWriter.postReview(command.revisionID, command.review);
      const revision = state.revisions[command.revisionID];
      return revision ? [buildRevisionChanged({ ...revision, reviewID }, revision)] : [];
    }
    case 'updateRevisionReview': {
      const revision = state.revisions[command.revisionID];
      if (!revision?.reviewID) throw new Error(`revision ${command.revisionID} has no review to update`);
      const reviewID = await revisionWriter.updateReview(revision.id, revision.reviewID, command.review);
      return [buildRevisionChanged({ ...revision, reviewID }, revision)];
    }
    case 'commentOnRevision':
      await revisionWriter.postComment(command.revisionID, command.body);
      return [];
  }
}
