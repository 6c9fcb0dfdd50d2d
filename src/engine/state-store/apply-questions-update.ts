import {
  type AgentAskedQuestions,
  type AgentRun,
  canTransitionAgentRun,
  type ImplementorRequested,
  type PlannerRequested,
  type QuestionsAnswered,
  type QuestionsTimedOut,
  type ReviewerRequested,
  type WaitingSession,
  type WaitingSessionDiscarded,
} from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';
import { failureKey } from './engine-state.ts';

type QuestionsEvent = AgentAskedQuestions | QuestionsAnswered | QuestionsTimedOut | WaitingSessionDiscarded;

/**
 * The questions part of applyStateUpdate: a run that asked ends (completed, `askedQuestions`) and its item's
 * session is recorded as waiting; answers are noted on it; a discarded session's record goes.
 */
export function applyQuestionsUpdate(
  state: EngineState,
  event: QuestionsEvent,
  putFinishedRun: (state: EngineState, run: AgentRun) => EngineState,
): { state: EngineState; warnings: string[] } {
  switch (event.type) {
    case 'agentAskedQuestions':
      return applyAskedQuestions(state, event, putFinishedRun);
    case 'questionsAnswered': {
      const waiting = state.waitingForInput[event.workItemID];
      if (waiting === undefined || waiting.answers !== null) return { state, warnings: [] };
      return {
        state: {
          ...state,
          waitingForInput: {
            ...state.waitingForInput,
            [event.workItemID]: { ...waiting, answers: event.answers },
          },
        },
        warnings: [],
      };
    }
    case 'questionsTimedOut':
      return { state, warnings: [] };
    case 'waitingSessionDiscarded':
      return { state: withoutWaiting(state, event.workItemID), warnings: [] };
  }
}

/** The run that asked ends completed (its failure streak too) and its item's session waits for answers. */
function applyAskedQuestions(
  state: EngineState,
  event: AgentAskedQuestions,
  putFinishedRun: (state: EngineState, run: AgentRun) => EngineState,
): { state: EngineState; warnings: string[] } {
  const run = state.agentRuns[event.sessionID];
  if (run === undefined) return { state, warnings: [`${event.type}: unknown session ${event.sessionID}`] };
  if (!canTransitionAgentRun(run.status, 'completed')) {
    return {
      state,
      warnings: [`${event.type}: invalid run transition ${run.status} → completed for ${event.sessionID}`],
    };
  }
  const ended: AgentRun = {
    ...run,
    status: 'completed',
    askedQuestions: true,
    logFilePath: event.logFilePath ?? run.logFilePath,
    usage: event.usage,
    endedAt: event.at,
  };
  let next = putFinishedRun(state, ended);
  // Asking is not failing: the streak of consecutive failures ends as it does on a result.
  const key = run.role === 'planner' ? failureKey('planner') : failureKey(run.role, run.workItemID);
  if (Object.hasOwn(next.failures, key)) {
    const { [key]: _ended, ...failures } = next.failures;
    next = { ...next, failures };
  }
  // A planner waits on the questions item opened for it; without one nothing waits.
  const workItemID = run.role === 'planner' ? event.workItemID : run.workItemID;
  if (workItemID === null) return { state: next, warnings: [] };
  const waiting: WaitingSession = {
    workItemID,
    role: run.role,
    sessionID: run.sessionID,
    sessionNumber: run.sessionNumber ?? 1,
    revisionID: run.role === 'reviewer' ? run.revisionID : null,
    questions: event.questions,
    session: event.session,
    askedAt: event.at,
    answers: null,
    ...(run.role === 'planner' && { specSHAs: run.specSHAs }),
    ...(run.role === 'implementor' && run.mode !== undefined && { mode: run.mode }),
  };
  return {
    state: { ...next, waitingForInput: { ...next.waitingForInput, [workItemID]: waiting } },
    warnings: [],
  };
}

/** A resumed run (session 2, 3…) takes over its item's waiting session: the record goes when it is requested. */
export function withoutWaitingOnResume(
  state: EngineState,
  event: ImplementorRequested | ReviewerRequested | PlannerRequested,
): EngineState {
  if (event.sessionNumber === undefined || event.sessionNumber <= 1) return state;
  const workItemID = event.type === 'plannerRequested' ? event.questionsItemID : event.workItemID;
  return workItemID === undefined ? state : withoutWaiting(state, workItemID);
}

function withoutWaiting(state: EngineState, workItemID: string): EngineState {
  if (!Object.hasOwn(state.waitingForInput, workItemID)) return state;
  const { [workItemID]: _removed, ...waitingForInput } = state.waitingForInput;
  return { ...state, waitingForInput };
}
