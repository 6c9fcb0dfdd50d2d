import {
  type AgentAskedQuestions,
  buildAnswerComment,
  buildQuestionsComment,
  type EngineCommand,
  type PlannerRequested,
  type QuestionsAnswered,
  type QuestionsTimedOut,
  type ReviewerRequested,
  type WaitingSession,
  type WorkItemChanged,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { Handler } from './handler.ts';
import { isAutoRefineRun, isAutoRefineWaitStatus } from './is-auto-refine-run.ts';
import { isLeftByHuman } from './is-left-by-human.ts';

/** Marks the engine's timeout comment, so it is never read as an answer. */
const TIMEOUT_COMMENT_MARKER = '<!-- flotilla:questions-timeout -->';

/**
 * An agent's questions park its item in waiting-for-input (questions posted as a comment); answers resume the
 * same session as the item/role's next session, in the mode it asked in (issue #29: an investigation's or a
 * refinement's, an automatic one's too); no answer within questionTimeout → needs-refinement and the
 * kept session is discarded, as it is when a human moves a waiting item on. A planner's questions wait on the
 * `questions` item opened for them (created waiting); its resume moves that item to in-progress, and its
 * timeout closes it.
 */
export const handleQuestions: Handler = (event, state) => {
  switch (event.type) {
    case 'agentAskedQuestions':
      return onQuestionsAsked(event, state);
    case 'questionsAnswered':
      return onQuestionsAnswered(event, state);
    case 'reviewerRequested':
    case 'plannerRequested':
      return onResumeRequested(event);
    case 'questionsTimedOut':
      return onQuestionsTimedOut(event, state);
    case 'workItemChanged':
      return onWaitingItemMoved(event, state);
    default:
      return [];
  }
};

function onQuestionsAsked(event: AgentAskedQuestions, state: EngineState): EngineCommand[] {
  if (event.workItemID === null || state.waitingForInput[event.workItemID]?.sessionID !== event.sessionID)
    return [];
  // The item was taken from its agent while it ran (see handle-implementation and handle-review):
  // nobody waits for these answers.
  if (isTakenAway(event, event.workItemID, state))
    return [{ type: 'discardWaitingSession', workItemID: event.workItemID }];
  const commands: EngineCommand[] = [
    {
      type: 'commentOnWorkItem',
      workItemID: event.workItemID,
      body: buildQuestionsComment({
        role: event.role,
        workItemID: event.workItemID,
        questions: event.questions,
      }),
    },
  ];
  // A planner's new questions item is created waiting already.
  if (state.workItems[event.workItemID]?.status !== 'waiting-for-input') {
    commands.push({
      type: 'transitionWorkItemStatus',
      workItemID: event.workItemID,
      newStatus: 'waiting-for-input',
      cause: 'agent-questions',
    });
  }
  return commands;
}

/**
 * Whether a human moved the item while its agent ran. An automatic refinement (handle-auto-refinement.ts)
 * runs while its item waits in needs-refinement (or pending): it asks as any implementor does, unless the
 * item left those statuses.
 */
function isTakenAway(event: AgentAskedQuestions, workItemID: string, state: EngineState): boolean {
  const item = state.workItems[workItemID];
  if (event.role === 'implementor' && isAutoRefineRun(state, event.sessionID, workItemID))
    return item === undefined || !isAutoRefineWaitStatus(item, item.status);
  if (event.role === 'implementor') return isLeftByHuman(item?.status);
  return event.role === 'reviewer' && item?.status !== 'review';
}

function onQuestionsAnswered(event: QuestionsAnswered, state: EngineState): EngineCommand[] {
  const waiting = state.waitingForInput[event.workItemID];
  const item = state.workItems[event.workItemID];
  // Only the first answer counts (the poller sees it until the resume takes the session over).
  if (waiting === undefined || waiting.answers !== event.answers || item?.status !== 'waiting-for-input')
    return [];
  const commands: EngineCommand[] = [];
  if (event.source === 'user') {
    commands.push({
      type: 'commentOnWorkItem',
      workItemID: event.workItemID,
      body: buildAnswerComment(event.answers),
    });
  }
  commands.push(buildResumeRequest(waiting, event.answers));
  return commands;
}

/** A resumed session (its second or later): the item goes back to where the agent works. */
function onResumeRequested(event: ReviewerRequested | PlannerRequested): EngineCommand[] {
  if (event.sessionNumber === undefined || event.sessionNumber <= 1) return [];
  const workItemID = event.type === 'reviewerRequested' ? event.workItemID : event.questionsItemID;
  if (workItemID === undefined) return [];
  return [
    {
      type: 'transitionWorkItemStatus',
      workItemID,
      newStatus: event.type === 'reviewerRequested' ? 'review' : 'in-progress',
      cause: 'questions-answered',
    },
  ];
}

function onQuestionsTimedOut(event: QuestionsTimedOut, state: EngineState): EngineCommand[] {
  const waiting = state.waitingForInput[event.workItemID];
  if (waiting === undefined || waiting.sessionID !== event.sessionID || waiting.answers !== null) return [];
  // Discarded before the status changes, so that change is not taken for a human moving the item on (its
  // workItemChanged would discard the session a second time).
  if (waiting.role === 'planner') {
    return [
      {
        type: 'commentOnWorkItem',
        workItemID: event.workItemID,
        body:
          `${TIMEOUT_COMMENT_MARKER}\nNobody answered the planner's questions in time (questionTimeout); ` +
          'its session was removed and these questions are closed. Refine the spec: a change to an ' +
          'approved spec plans again (so does the dashboard key `d`).',
      },
      { type: 'discardWaitingSession', workItemID: event.workItemID },
      {
        type: 'transitionWorkItemStatus',
        workItemID: event.workItemID,
        newStatus: 'closed',
        cause: 'questions-timed-out',
      },
    ];
  }
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: event.workItemID,
      body:
        `${TIMEOUT_COMMENT_MARKER}\nNobody answered the ${waiting.role}'s questions in time (questionTimeout); ` +
        'its session and worktree were removed. Refine the item and move it back to pending to start afresh.',
    },
    { type: 'discardWaitingSession', workItemID: event.workItemID },
    {
      type: 'transitionWorkItemStatus',
      workItemID: event.workItemID,
      newStatus: 'needs-refinement',
      cause: 'questions-timed-out',
    },
  ];
}

function onWaitingItemMoved(event: WorkItemChanged, state: EngineState): EngineCommand[] {
  // A human moved a waiting item on (closed it, sent it back to pending…): nobody will answer, or the
  // answered session's queued resume will not start (its guard wants the item waiting). A resume that
  // did start took the wait over before its item left waiting-for-input.
  const waiting = state.waitingForInput[event.workItemID];
  if (
    waiting === undefined ||
    event.oldStatus !== 'waiting-for-input' ||
    event.newStatus === 'waiting-for-input'
  )
    return [];
  return [{ type: 'discardWaitingSession', workItemID: event.workItemID }];
}

function buildResumeRequest(waiting: WaitingSession, answers: string): EngineCommand {
  const resume = { waiting, answers };
  if (waiting.role === 'planner') {
    // The specs it was given, at the versions it was given: what it planned so far, and what gets recorded.
    const specSHAs = waiting.specSHAs ?? {};
    return { type: 'requestPlannerRun', specPaths: Object.keys(specSHAs), specSHAs, resume };
  }
  if (waiting.role === 'reviewer' && waiting.revisionID !== null) {
    return {
      type: 'requestReviewerRun',
      workItemID: waiting.workItemID,
      revisionID: waiting.revisionID,
      resume,
    };
  }
  // An automatic refinement's item has no label saying so: its resume is a refine run all the same.
  return {
    type: 'requestImplementorRun',
    workItemID: waiting.workItemID,
    resume,
    ...(waiting.mode === 'refine' && { mode: 'refine' as const }),
  };
}
