import type { EngineEvent, ReplyToRevisionFeedback } from '../../domain/index.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/**
 * Posts the implementor's answer on humans' feedback through the provider's `replyToFeedback` (a reply in
 * each line comment's thread, one comment quoting the rest) and reports it answered. A provider without the
 * capability never reports feedback, so a command for one fails rather than drop the answer silently.
 */
export async function replyToRevisionFeedback(
  command: ReplyToRevisionFeedback,
  deps: Pick<CommandExecutorDeps, 'revisionWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const reply = deps.revisionWriter.replyToFeedback?.bind(deps.revisionWriter);
  if (reply === undefined) {
    throw new Error(`the provider cannot reply to feedback on revision ${command.revisionID}`);
  }
  await reply(command.revisionID, command.feedback, command.body);
  return [
    {
      type: 'revisionFeedbackAnswered',
      workItemID: command.workItemID,
      feedbackIDs: command.feedback.map((feedback) => feedback.id),
      at: deps.clock.now(),
    },
  ];
}
