import {
  type AgentNoted,
  type AgentUsage,
  describeBudgetPause,
  describeChecksOutcome,
  describeConversationParty,
  describeParking,
  type EngineEvent,
  formatUSD,
  isLimitReason,
  isScriptedRun,
  parkingKey,
  revisionName,
  toSummaryLine,
} from '../../domain/index.ts';
import { type EngineState, UNNAMED_RUNTIME } from '../../engine/state-store/engine-state.ts';

/** ` in 4.2s, $0.0123` from the run's request time and reported usage. */
function runCost(
  state: EngineState | undefined,
  sessionID: string,
  at: number,
  usage: AgentUsage | null,
): string {
  const run = state?.agentRuns[sessionID];
  const parts: string[] = [];
  if (run) parts.push(`in ${((at - run.requestedAt) / 1000).toFixed(1)}s`);
  // A scripted run's cost is made up by the scripted model server: say so.
  if (usage?.costUSD != null)
    parts.push(`$${usage.costUSD.toFixed(4)}${isScriptedRun(run) ? ' (scripted)' : ''}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/**
 * A progress line is one line: a multi-line error (a validation failure carries up to 200 lines of output)
 * is cut to its first line, with where the rest is.
 */
function firstLineOf(error: string, sessionID: string): string {
  const lines = error.trimEnd().split('\n');
  if (lines.length <= 1) return lines[0] ?? '';
  const rest = lines.length - 1;
  return `${lines[0]} … (${rest} more line${rest === 1 ? '' : 's'}: flotilla logs ${sessionID.slice(0, 8)})`;
}

/** What an agent recorded through its tools (issue #28 §2), on one line; its summary is its live progress. */
function describeNote(event: AgentNoted): string {
  const who = `${event.role}${event.workItemID === null ? '' : ` #${event.workItemID}`}`;
  const oneLine = (text: string) => toSummaryLine(text).slice(0, 160);
  switch (event.note.kind) {
    case 'summary':
      return `${who}: ${oneLine(event.note.text)}`;
    case 'memory':
      return `${who} stored a memory: ${oneLine(event.note.topic)}`;
    case 'decision':
      return `${who} decided: ${oneLine(event.note.decision)}`;
    case 'question':
      return `${who} logged a question (flotilla questions): ${oneLine(event.note.text)}`;
  }
}

const clock = (epochMs: number) => new Date(epochMs).toISOString().slice(11, 19);

/** ` — claude parked until 14:05:00 (usage limit)`: what the limit that ended the run parked. */
function parkedBy(state: EngineState | undefined, sessionID: string): string {
  const run = state?.agentRuns[sessionID];
  if (state === undefined || run === undefined) return '';
  const runtime = run.runtime ?? UNNAMED_RUNTIME;
  const parking =
    (run.account !== undefined ? state.parkings[parkingKey(runtime, run.account)] : undefined) ??
    state.parkings[parkingKey(runtime, null)];
  return parking === undefined || parking.since !== run.endedAt
    ? ''
    : ` — ${describeParking(parking, clock)}`;
}

type EventOf<Type extends EngineEvent['type']> = Extract<EngineEvent, { type: Type }>;
type RunEvent = EventOf<
  | 'plannerStarted'
  | 'implementorStarted'
  | 'reviewerStarted'
  | 'plannerCompleted'
  | 'implementorCompleted'
  | 'reviewerCompleted'
  | 'plannerFailed'
  | 'implementorFailed'
  | 'reviewerFailed'
>;

/** An agent run started, finished (with its duration and cost) or failed (and what its limit parked). */
function describeRunEvent(event: RunEvent, state: EngineState | undefined): string {
  switch (event.type) {
    case 'plannerStarted':
    case 'implementorStarted':
    case 'reviewerStarted':
      return `${event.type.replace('Started', '')} started (session ${event.sessionID.slice(0, 8)})`;
    case 'plannerCompleted': {
      const { create, close, update } = event.result;
      return `planner finished ${event.specPaths.join(', ')}: ${create.length} to create, ${close.length} to close, ${update.length} to update${runCost(state, event.sessionID, event.at, event.usage)}`;
    }
    case 'implementorCompleted':
      return `implementor finished #${event.workItemID}: ${event.result.outcome}${runCost(state, event.sessionID, event.at, event.usage)}`;
    case 'reviewerCompleted':
      return `reviewer finished #${event.workItemID}: ${event.result.review.verdict} — ${event.result.review.summary}${runCost(state, event.sessionID, event.at, event.usage)}`;
    case 'plannerFailed':
    case 'implementorFailed':
    case 'reviewerFailed':
      return `${event.type.replace('Failed', '')} failed (${event.reason})${runCost(state, event.sessionID, event.at, event.usage)}: ${firstLineOf(event.error, event.sessionID)}${isLimitReason(event.reason) ? parkedBy(state, event.sessionID) : ''}`;
  }
}

/** A revision created, or its checks' new result (nothing while they run or when it did not change). */
function describeRevisionChange(event: EventOf<'revisionChanged'>): string | null {
  if (!event.revision) return null;
  if (event.oldPipelineStatus === null) {
    return `revision ${revisionName(event.revision)} created on ${event.revision.headRef} for #${event.workItemID}`;
  }
  if (event.newPipelineStatus === event.oldPipelineStatus || event.newPipelineStatus === 'pending')
    return null;
  return `checks for revision ${revisionName(event.revision)} of #${event.workItemID}: ${event.newPipelineStatus === null ? 'unknown' : describeChecksOutcome(event.newPipelineStatus)}${event.revision.pipeline?.reason ? ` — ${event.revision.pipeline.reason}` : ''}`;
}

/** Reviews and comments a revision received, and who wrote them. */
function describeFeedback(
  event: EventOf<'revisionFeedbackReceived'>,
  state: EngineState | undefined,
): string {
  const kinds = event.feedback.map((entry) =>
    entry.kind === 'review'
      ? `${(entry.state ?? 'review').toLowerCase().replace('_', ' ')} review`
      : entry.kind === 'line-comment'
        ? `comment on ${entry.path}${entry.line === null ? '' : `:${entry.line}`}`
        : 'comment',
  );
  const authors = [...new Set(event.feedback.map((entry) => entry.author))].join(', ');
  return `revision ${revisionName(state?.revisions[event.revisionID] ?? { id: event.revisionID })} of #${event.workItemID}: ${kinds.join(', ')} by ${authors}`;
}

/** Why a dispatch waits: the machine, a parked runtime, a retry's backoff; null for the other reasons. */
function describeQueued(event: EventOf<'dispatchQueued'>): string | null {
  const { command } = event;
  // An automatic refinement (issue #29) is a refine run, not the implementor's retry.
  const role = command.type === 'requestImplementorRun' && command.mode === 'refine' ? 'refine' : undefined;
  const what = `${role ?? command.type.replace(/^request|Run$/g, '').toLowerCase()}${'workItemID' in command ? ` for #${command.workItemID}` : ''}`;
  if (role !== undefined && event.reason === 'backoff' && event.notBefore !== null)
    return `${what} starts at ${clock(event.notBefore)} (the last failure's backoff)`;
  if (event.reason === 'resources')
    return `${what} waits for the machine — ${event.detail ?? 'memory or CPU'}`;
  if (event.reason === 'parked' && event.notBefore !== null)
    return `${what} waits for its runtime's limit to lift at ${clock(event.notBefore)}`;
  return event.reason === 'backoff' && event.notBefore !== null
    ? `retry of ${what} at ${clock(event.notBefore)}`
    : null;
}

/** A question one party asked another, and its answer when it came with it. */
function describeConversation({ conversation }: EventOf<'conversationCreated'>): string {
  const to =
    conversation.to === null ? `'${conversation.target}'` : describeConversationParty(conversation.to);
  const asked = `${describeConversationParty(conversation.from)} asked ${to} (${conversation.id}): ${toSummaryLine(conversation.question).slice(0, 160)}`;
  return conversation.status === 'open'
    ? asked
    : `${asked} — ${conversation.status}: ${toSummaryLine(conversation.answer ?? '').slice(0, 160)}`;
}

/** Budgets and refused or failed commands: the engine's own troubles. */
function describeTrouble(
  event: EventOf<
    'budgetPauseChanged' | 'workItemOverBudget' | 'commandFailed' | 'commandRejected' | 'errorRecorded'
  >,
): string | null {
  switch (event.type) {
    case 'budgetPauseChanged':
      return event.pause === null
        ? 'dispatch resumed: within budget again'
        : describeBudgetPause(event.pause);
    case 'workItemOverBudget':
      return `work item #${event.workItemID} over budget: ${formatUSD(event.spentUSD)} of ${formatUSD(event.capUSD)} spent${event.scope === 'run' ? ' in one run' : ''}; blocked`;
    case 'commandFailed':
      return `command ${event.command.type} failed: ${event.error}`;
    case 'commandRejected':
      return event.kind === 'duplicate'
        ? null
        : `command ${event.command.type} refused (${event.kind}): ${event.reason}`;
    case 'errorRecorded':
      return `error (${event.source}): ${event.message}`;
  }
}

/**
 * One readable progress line for a meaningful event — spec changes, items created and moved, runs started
 * and finished (with duration and cost), revisions created, checks results, verdicts, retries, errors —
 * and null for the rest. `state` is the engine state after the event (for durations).
 */
export function describeEvent(event: EngineEvent, state?: EngineState): string | null {
  switch (event.type) {
    case 'specChanged':
      return `spec ${event.filePath} ${event.changeType} (${event.frontmatterStatus})`;
    case 'workItemChanged':
      if (!event.workItem) return null;
      return event.oldStatus === null
        ? `work item #${event.workItemID} "${event.workItem.title}" created (${event.newStatus})`
        : `work item #${event.workItemID} ${event.oldStatus} → ${event.newStatus}`;
    case 'plannerStarted':
    case 'implementorStarted':
    case 'reviewerStarted':
    case 'plannerCompleted':
    case 'implementorCompleted':
    case 'reviewerCompleted':
    case 'plannerFailed':
    case 'implementorFailed':
    case 'reviewerFailed':
      return describeRunEvent(event, state);
    case 'revisionChanged':
      return describeRevisionChange(event);
    case 'revisionFeedbackReceived':
      return describeFeedback(event, state);
    case 'revisionFeedbackAnswered':
      return `#${event.workItemID}: answered ${event.feedbackIDs.length === 1 ? 'the comment' : `${event.feedbackIDs.length} comments`} on its revision`;
    case 'dispatchQueued':
      return describeQueued(event);
    case 'accountSwitched':
      return `${event.runtime} account ${event.from} exhausted until ${clock(event.until)}: session ${event.sessionID.slice(0, 8)} continues on account ${event.to}`;
    case 'budgetPauseChanged':
    case 'workItemOverBudget':
    case 'commandFailed':
    case 'commandRejected':
    case 'errorRecorded':
      return describeTrouble(event);
    case 'agentNoted':
      return describeNote(event);
    case 'conversationCreated':
      return describeConversation(event);
    case 'conversationAnswered':
      return `conversation ${event.conversationID} ${event.status === 'answered' ? 'answered' : `ended (${event.status})`}: ${toSummaryLine(event.answer).slice(0, 160)}`;
    default:
      return null;
  }
}
