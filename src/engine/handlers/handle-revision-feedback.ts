import {
  asksForRework,
  type EngineCommand,
  isApprovalOf,
  type RevisionFeedbackReceived,
  type WorkItemChanged,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildFeedbackReply, buildSentBackComment } from './comments/build-feedback-reply.ts';
import type { Handler } from './handler.ts';

/**
 * Statuses a human's changes request sends back to pending: nobody works on the item there, and it is not
 * parked for a human. From needs-refinement or blocked the feedback waits for the human who moves the item
 * on: unanswered feedback is read again after a restart, and would otherwise restart a parked item each time.
 */
const REWORKABLE: readonly WorkItemStatus[] = ['review', 'approved'];
/** Statuses a human's approval approves from (an agent holds the others, or it is approved already). */
const APPROVABLE: readonly WorkItemStatus[] = ['review', 'needs-refinement', 'blocked'];

/**
 * Humans steer from the tracker (issue #26): a changes request or a mention of the trigger on the revision
 * sends its item back for rework from review or approved; in any other status the feedback waits for the
 * next implementor run (one that is running gets it in the round after; a parked item's, once a human moves
 * it back to pending). An approval of the current head approves it from review,
 * needs-refinement or blocked, whatever the reviewer agent said (the reviewer is then cancelled by
 * handle-review); a changes request in the same read wins. Once the reworked revision is in review, the
 * implementor's answer goes to each thread, and feedback that arrived during that run sends it back again.
 */
export const handleRevisionFeedback: Handler = (event, state) => {
  switch (event.type) {
    case 'revisionFeedbackReceived':
      return reactToFeedback(event, state);
    case 'workItemChanged':
      return answerAfterRework(event, state);
    default:
      return [];
  }
};

function reactToFeedback(event: RevisionFeedbackReceived, state: EngineState): EngineCommand[] {
  const item = state.workItems[event.workItemID];
  const revision = state.revisions[event.revisionID];
  if (item === undefined || revision === undefined || item.linkedRevision !== event.revisionID) return [];
  const rework = event.feedback.filter(asksForRework);
  if (rework.length > 0) {
    if (!REWORKABLE.includes(item.status)) return [];
    return sendBack(item.id, event.revisionID, rework);
  }
  if (!event.feedback.some((feedback) => isApprovalOf(feedback, revision.headSHA))) return [];
  if (!APPROVABLE.includes(item.status)) return [];
  return [
    { type: 'transitionWorkItemStatus', workItemID: item.id, newStatus: 'approved', cause: 'human-review' },
  ];
}

function sendBack(
  workItemID: string,
  revisionID: string,
  feedback: Parameters<typeof buildSentBackComment>[1],
): EngineCommand[] {
  return [
    { type: 'commentOnWorkItem', workItemID, body: buildSentBackComment(revisionID, feedback) },
    { type: 'transitionWorkItemStatus', workItemID, newStatus: 'pending', cause: 'human-review' },
  ];
}

function answerAfterRework(event: WorkItemChanged, state: EngineState): EngineCommand[] {
  if (event.oldStatus !== 'in-progress' || event.newStatus !== 'review') return [];
  const pending = state.revisionFeedback[event.workItemID] ?? [];
  const item = state.workItems[event.workItemID];
  if (pending.length === 0 || item === undefined || item.status !== 'review') return [];
  const commands: EngineCommand[] = [];
  const answered = pending.filter((entry) => entry.answer !== null);
  const first = answered[0];
  if (first?.answer != null) {
    // One run answers everything it was given; the revision is the one the rework updated.
    const revisionID = item.linkedRevision ?? first.revisionID;
    commands.push({
      type: 'replyToRevisionFeedback',
      workItemID: item.id,
      revisionID,
      feedback: answered.map((entry) => entry.feedback),
      body: buildFeedbackReply({
        revisionID,
        headSHA: state.revisions[revisionID]?.headSHA ?? null,
        summary: first.answer.summary,
        files: first.answer.files,
      }),
    });
  }
  const arrivedDuringRun = pending.filter((entry) => entry.sessionID === null);
  if (arrivedDuringRun.length > 0) {
    commands.push(
      ...sendBack(
        item.id,
        item.linkedRevision ?? first?.revisionID ?? '',
        arrivedDuringRun.map((e) => e.feedback),
      ),
    );
  }
  return commands;
}
