import {
  asksForRework,
  type EngineEvent,
  listPatchFiles,
  type RevisionFeedbackAnswered,
  type RevisionFeedbackReceived,
} from '../../domain/index.ts';
import type { EngineState, PendingFeedback } from './engine-state.ts';

/**
 * Humans' feedback on revisions (issue #26), after the event's own update: received feedback is remembered
 * as seen and, unless it is an approval, waits for rework; an implementor requested for the item (not a
 * resume) is given everything still unanswered; its completed result becomes the answer; an answer posted
 * removes it; an item that is closed or gone drops its feedback. Returns `state` itself when nothing changes.
 */
export function applyFeedbackUpdate(state: EngineState, event: EngineEvent): EngineState {
  switch (event.type) {
    case 'revisionFeedbackReceived':
      return receive(state, event);
    case 'revisionFeedbackAnswered':
      return answered(state, event);
    case 'implementorRequested':
      if (event.sessionNumber !== undefined && event.sessionNumber > 1) return state;
      return mapPending(state, event.workItemID, (entry) =>
        entry.answer === null ? { ...entry, sessionID: event.sessionID } : entry,
      );
    case 'implementorCompleted': {
      const { result } = event;
      if (result.outcome !== 'completed') return state;
      const answer = { summary: result.summary, files: listPatchFiles(result.patch ?? '') };
      // A resumed run has its own session id: whatever was given to the item's earlier session is answered.
      return mapPending(state, event.workItemID, (entry) =>
        entry.sessionID !== null && entry.answer === null ? { ...entry, answer } : entry,
      );
    }
    case 'workItemChanged':
      if (event.newStatus !== null && event.newStatus !== 'closed') return state;
      return withPending(state, event.workItemID, []);
    default:
      return state;
  }
}

function receive(state: EngineState, event: RevisionFeedbackReceived): EngineState {
  const fresh = event.feedback.filter((feedback) => state.seenFeedback[feedback.id] === undefined);
  if (fresh.length === 0) return state;
  const seenFeedback = { ...state.seenFeedback };
  for (const feedback of fresh) seenFeedback[feedback.id] = true;
  const pending = state.revisionFeedback[event.workItemID] ?? [];
  const added: PendingFeedback[] = fresh
    .filter(asksForRework)
    .map((feedback) => ({ revisionID: event.revisionID, feedback, sessionID: null, answer: null }));
  const next = { ...state, seenFeedback };
  return added.length === 0 ? next : withPending(next, event.workItemID, [...pending, ...added]);
}

function answered(state: EngineState, event: RevisionFeedbackAnswered): EngineState {
  const pending = state.revisionFeedback[event.workItemID];
  if (pending === undefined) return state;
  const ids = new Set(event.feedbackIDs);
  const left = pending.filter((entry) => !ids.has(entry.feedback.id));
  return left.length === pending.length ? state : withPending(state, event.workItemID, left);
}

function mapPending(
  state: EngineState,
  workItemID: string,
  update: (entry: PendingFeedback) => PendingFeedback,
): EngineState {
  const pending = state.revisionFeedback[workItemID];
  if (pending === undefined) return state;
  const mapped = pending.map(update);
  return mapped.every((entry, index) => entry === pending[index])
    ? state
    : withPending(state, workItemID, mapped);
}

function withPending(state: EngineState, workItemID: string, pending: PendingFeedback[]): EngineState {
  if (pending.length > 0)
    return { ...state, revisionFeedback: { ...state.revisionFeedback, [workItemID]: pending } };
  if (state.revisionFeedback[workItemID] === undefined) return state;
  const { [workItemID]: _dropped, ...rest } = state.revisionFeedback;
  return { ...state, revisionFeedback: rest };
}
