import {
  type AgentRun,
  answersEntryID,
  boundTaskContextSummary,
  type EngineEvent,
  type ImplementorCompleted,
  type ImplementorFailed,
  isAgentRunActive,
  type ModeResultApplied,
  type PlanApplied,
  type QuestionsAnswered,
  type ReviewerCompleted,
  type TaskContextEntry,
  type TaskContextEntryType,
} from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';

/**
 * The task context part of applyStateUpdate (issue #28 §1, docs/task-context.md): a run whose end the state
 * has just applied adds its entry to its item's history — a completed implementor (first change, fix,
 * blocker), a reviewer's verdict, an implementor whose work failed validation or changed nothing. Runs that
 * fail otherwise (errors, limits, cancels) say nothing about the work and add nothing. `before` is the state
 * the event was applied to: the run must have been active there, so a replayed end adds nothing.
 */
export function applyTaskContextUpdate(
  before: EngineState,
  after: EngineState,
  event: EngineEvent,
): EngineState {
  if (event.type === 'modeResultApplied') return addInvestigationReports(after, event);
  if (event.type === 'questionsAnswered') return addAnswers(before, after, event);
  if (event.type === 'planApplied') return addPlanSummaries(after, event);
  if (
    event.type !== 'implementorCompleted' &&
    event.type !== 'reviewerCompleted' &&
    event.type !== 'implementorFailed'
  )
    return after;
  const was = before.agentRuns[event.sessionID];
  const run = after.agentRuns[event.sessionID];
  if (was === undefined || run === undefined || !isAgentRunActive(was) || isAgentRunActive(run)) return after;
  const entry = buildEntry(event, run, before);
  if (entry === null) return after;
  const existing = after.taskContext[entry.workItemID] ?? [];
  if (existing.some((known) => known.id === entry.id)) return after;
  return { ...after, taskContext: { ...after.taskContext, [entry.workItemID]: [...existing, entry] } };
}

/**
 * A human answered a waiting run's questions: the resumed session gets them, and so does every later run on
 * the item (a retry, the reviewer, a rework), as an `answers` entry. A planner's questions wait on a
 * questions item of their own, whose history nobody reads: nothing is added there.
 */
function addAnswers(before: EngineState, after: EngineState, event: QuestionsAnswered): EngineState {
  const waiting = before.waitingForInput[event.workItemID];
  if (waiting === undefined || waiting.answers !== null || waiting.role === 'planner') return after;
  const entry: TaskContextEntry = {
    id: answersEntryID(waiting.sessionID, waiting.sessionNumber),
    workItemID: event.workItemID,
    sessionID: waiting.sessionID,
    role: waiting.role,
    runtime: before.agentRuns[waiting.sessionID]?.runtime ?? waiting.session.runtime,
    type: 'answers',
    summary: boundTaskContextSummary(`A human answered the ${waiting.role}'s questions:\n${event.answers}`),
    data: { questions: waiting.questions, source: event.source },
    createdAt: event.at ?? waiting.askedAt,
  };
  const existing = after.taskContext[entry.workItemID] ?? [];
  if (existing.some((known) => known.id === entry.id)) return after;
  return { ...after, taskContext: { ...after.taskContext, [entry.workItemID]: [...existing, entry] } };
}

/**
 * A planner run's applied result: each item it created or updated gets the plan's summary (the planner's
 * own, else what it was made from), with what else the plan created, so the item's agents know the plan
 * they are part of.
 */
function addPlanSummaries(state: EngineState, event: PlanApplied): EngineState {
  const run = state.agentRuns[event.sessionID];
  const specPaths = run?.role === 'planner' ? run.specPaths : [];
  const from = specPaths.length > 0 ? ` from ${specPaths.join(', ')}` : '';
  const created = event.created.map(({ workItemID, title }) => `#${workItemID} ${title}`);
  const lines = [
    event.summary ?? `The planner planned${from}.`,
    ...(created.length > 0 ? [`Created: ${created.join('; ')}.`] : []),
    ...(event.updatedIDs.length > 0
      ? [`Updated: ${event.updatedIDs.map((id) => `#${id}`).join(', ')}.`]
      : []),
  ];
  const summary = boundTaskContextSummary(lines.join('\n'));
  const data = {
    specPaths,
    created: event.created.map((item) => item.workItemID),
    updated: event.updatedIDs,
  };
  let taskContext = state.taskContext;
  for (const workItemID of [...event.created.map((item) => item.workItemID), ...event.updatedIDs]) {
    const entry: TaskContextEntry = {
      id: `${event.sessionID}:plan_summary:${workItemID}`,
      workItemID,
      sessionID: event.sessionID,
      role: 'planner',
      runtime: run?.runtime ?? null,
      type: 'plan_summary',
      summary,
      data,
      createdAt: event.at,
    };
    const existing = taskContext[workItemID] ?? [];
    if (existing.some((known) => known.id === entry.id)) continue;
    taskContext = { ...taskContext, [workItemID]: [...existing, entry] };
  }
  return taskContext === state.taskContext ? state : { ...state, taskContext };
}

/**
 * An applied investigation (issue #29): its report becomes a context entry of each fix item it created, so
 * their implementors start from the root cause and the evidence.
 */
function addInvestigationReports(state: EngineState, event: ModeResultApplied): EngineState {
  const { report } = event;
  if (report.mode !== 'investigate') return state;
  let taskContext = state.taskContext;
  for (const workItemID of event.createdIDs) {
    const entry: TaskContextEntry = {
      id: `${event.sessionID}:investigation_report:${workItemID}`,
      workItemID,
      sessionID: event.sessionID,
      role: 'implementor',
      runtime: state.agentRuns[event.sessionID]?.runtime ?? null,
      type: 'investigation_report',
      summary: boundTaskContextSummary(
        `Investigation of #${event.workItemID}: ${report.summary}\n\nRoot cause: ${report.rootCause}`,
      ),
      data: { investigatedItem: event.workItemID, evidence: report.evidence, files: report.files },
      createdAt: event.at,
    };
    const existing = taskContext[workItemID] ?? [];
    if (existing.some((known) => known.id === entry.id)) continue;
    taskContext = { ...taskContext, [workItemID]: [...existing, entry] };
  }
  return taskContext === state.taskContext ? state : { ...state, taskContext };
}

function buildEntry(
  event: ImplementorCompleted | ReviewerCompleted | ImplementorFailed,
  run: AgentRun,
  before: EngineState,
): TaskContextEntry | null {
  const make = (type: TaskContextEntryType, summary: string, data: Record<string, unknown>) => ({
    id: `${event.sessionID}:${type}`,
    workItemID: event.workItemID,
    sessionID: event.sessionID,
    role: run.role,
    runtime: run.runtime ?? null,
    type,
    summary: boundTaskContextSummary(summary),
    data,
    createdAt: event.at,
  });
  switch (event.type) {
    case 'implementorCompleted': {
      const { result } = event;
      if (result.report !== undefined)
        return make(
          result.report.mode === 'investigate' ? 'investigation_summary' : 'refinement_summary',
          result.summary,
          {
            mode: result.report.mode,
            files: result.report.files,
          },
        );
      if (result.outcome === 'blocked')
        return make('blocked_summary', result.summary, { outcome: 'blocked' });
      if (result.outcome === 'validation-failure')
        return make('validation_failure', result.summary, { outcome: 'validation-failure' });
      // A run on an item that already links a revision reworks it (review feedback, red checks).
      const revisionID = before.workItems[event.workItemID]?.linkedRevision ?? null;
      const files = listPatchFiles(result.patch ?? '');
      return make(revisionID === null ? 'implementation_summary' : 'fix_summary', result.summary, {
        outcome: 'completed',
        revisionID,
        files,
      });
    }
    case 'reviewerCompleted': {
      const { review } = event.result;
      return make(review.verdict === 'approve' ? 'review_approved' : 'review_feedback', review.summary, {
        revisionID: event.revisionID,
        verdict: review.verdict,
        comments: review.comments.map(({ path, line, body }) => ({
          path,
          line,
          body: boundTaskContextSummary(body),
        })),
      });
    }
    case 'implementorFailed':
      if (event.reason === 'validation')
        return make('validation_failure', event.error, { reason: 'validation' });
      if (event.reason === 'no-changes') return make('no_changes', event.error, { reason: 'no-changes' });
      return null;
  }
}

/** The paths a git patch changes (`diff --git a/<path> b/<path>` headers), in order, each once. */
function listPatchFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const match of patch.matchAll(/^diff --git a\/.* b\/(.*)$/gm))
    if (match[1] !== undefined) files.add(match[1]);
  return [...files];
}
