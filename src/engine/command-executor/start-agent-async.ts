import {
  type AgentFailureReason,
  type AgentNote,
  type AgentQuestions,
  type AgentResult,
  type AgentUsage,
  BUDGET_FAILURE_PREFIX,
  type BudgetStop,
  type EngineEvent,
  formatUSD,
  isAgentQuestions,
  isLimitReason,
  MAX_NOTES_PER_RUN,
} from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { createOutputBroadcast } from '../../shared/create-output-broadcast.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { Clock, WriteFence } from '../engine-config.ts';
import { parseAgentToolCall, toolOfNote } from '../runtime-contract/agent-note-schema.ts';
import {
  type AgentRunHandle,
  type AgentRunRequest,
  type AgentStartParams,
  failureReasonOf,
  type RuntimeAdapter,
  resetsAtOf,
} from '../runtime-contract/runtime-contract.ts';
import type { ConversationBroker } from './create-conversation-broker.ts';
import type { RunRegistry } from './run-registry.ts';

type PlannerRunRequest = Extract<AgentRunRequest, { role: 'planner' }>;

/** How long a finished run waits for the adapter's output stream to deliver its last chunks. */
const OUTPUT_DRAIN_GRACE_MS = 2000;

export interface StartAgentAsyncDeps {
  adapter: RuntimeAdapter;
  /** The request plus its finished prompt (context-assembly/assemble-agent-context.ts). */
  assembleContext: (request: AgentRunRequest) => Promise<AgentStartParams>;
  registry: RunRegistry;
  emit: (event: EngineEvent) => void;
  clock: Clock;
  logger: Logger;
  /** Milliseconds without output or activity before the run is cancelled as timed out; 0 disables. */
  stallTimeoutMs: number;
  /** Called exactly once, just before the run's terminal event is emitted. */
  onFinished: (sessionID: string) => void;
  /**
   * Opens (or keeps) the `questions` item a planner's questions wait on (`open-planner-questions-item.ts`);
   * its events are emitted before the run's end. Absent: a planner's questions fail its run.
   */
  openPlannerQuestions?: (
    request: PlannerRunRequest,
  ) => Promise<{ workItemID: string; events: EngineEvent[] }>;
  /** Wraps the start of the agent, an external write (EngineConfig.fence); absent: it runs as it is. */
  fence?: WriteFence;
  /** Replaces secrets in what an agent records (its notes) before it is stored; default: unchanged. */
  redact?: (text: string) => string;
  /** Inter-agent questions (issue #28 §3): runs whose runtime exposes conversations join it while they run. */
  conversations?: ConversationBroker;
  /** Budget enforcement on the run's live usage (budget/create-budget-guard.ts); absent: no budgets. */
  budget?: {
    reportUsage(sessionID: string, costUSD: number): BudgetStop | null;
    runFinished(sessionID: string, costUSD: number | null): void;
  };
}

const SCOPE_NAMES: Record<BudgetStop['scope'], string> = {
  run: 'per-run',
  item: "work item's",
  day: "day's",
  month: "month's",
};

function describeBudgetStop(stop: BudgetStop): string {
  return `${BUDGET_FAILURE_PREFIX} stopped at the ${SCOPE_NAMES[stop.scope]} cap of ${formatUSD(stop.capUSD)} (spent ${formatUSD(stop.spentUSD)})`;
}

function readUsage(handle: AgentRunHandle): AgentUsage | null {
  try {
    return handle.usage?.() ?? null;
  } catch {
    return null;
  }
}

/**
 * Runs one agent session to its end and reports it as events: the prompt is assembled, then *Started once
 * the adapter has a session, then *Completed or *Failed. A provisioning failure (the prompt cannot be
 * assembled, or the runtime cannot start) is a *Failed with no *Started (requested → failed).
 * Never throws; every path ends with onFinished.
 */
export async function startAgentAsync(params: AgentRunRequest, deps: StartAgentAsyncDeps): Promise<void> {
  const { adapter, registry, emit, clock, logger } = deps;
  const { sessionID } = params;
  registry.register(sessionID, adapter);
  let handle: AgentRunHandle;
  try {
    const startParams = await deps.assembleContext(params);
    // A cancel while the prompt was assembled: no session is started only to be ended at once.
    if (registry.cancelReasonOf(sessionID) !== null) {
      throw new Error(`the ${params.role} run was cancelled before it started`);
    }
    handle = await (deps.fence === undefined
      ? adapter.startAgent(startParams)
      : deps.fence(() => adapter.startAgent(startParams)));
  } catch (error) {
    const cancelled = registry.cancelReasonOf(sessionID);
    logger.warn('agent provisioning failed', { sessionID, role: params.role, error: messageOf(error) });
    registry.remove(sessionID);
    deps.onFinished(sessionID);
    const reason = cancelled ?? (failureReasonOf(error) === 'unavailable' ? 'unavailable' : 'error');
    emit(
      buildFailedEvent(params, {
        reason,
        error: reason === 'unavailable' ? messageOf(error) : `provisioning failed: ${messageOf(error)}`,
        logFilePath: null,
        usage: null,
        at: clock.now(),
      }),
    );
    return;
  }

  const stream = createOutputBroadcast();
  let stallTimer: unknown = null;
  // While its agent waits for another agent's answer the run is quiet on purpose: no stall meanwhile.
  let waitingForAnswer = false;
  const armStallTimer = () => {
    if (deps.stallTimeoutMs <= 0 || waitingForAnswer) return;
    if (stallTimer !== null) clock.clearTimeout(stallTimer);
    stallTimer = clock.setTimeout(() => {
      logger.warn('agent stalled; cancelling', {
        sessionID,
        role: params.role,
        stallTimeoutMs: deps.stallTimeoutMs,
      });
      registry.cancel(sessionID, 'timeout');
    }, deps.stallTimeoutMs);
  };
  const unsubscribeActivity = handle.onActivity?.(armStallTimer);
  // Live usage: recorded (the ledger survives a crash mid-run) and held against the budget after every
  // model request, so a cap is overrun by at most the request that crossed it.
  let liveUsage: AgentUsage | null = null;
  let budgetStop: BudgetStop | null = null;
  const unsubscribeUsage = handle.onUsage?.((report) => {
    liveUsage = report.usage;
    emit({
      type: 'agentUsageReported',
      sessionID,
      usage: report.usage,
      model: report.model,
      at: clock.now(),
    });
    if (deps.budget === undefined || report.usage.costUSD === null || budgetStop !== null) return;
    const stop = deps.budget.reportUsage(sessionID, report.usage.costUSD);
    if (stop === null) return;
    budgetStop = stop;
    logger.info('budget cap reached; stopping the run', { sessionID, role: params.role, ...stop });
    registry.cancel(sessionID, 'budget');
  });
  const unsubscribeNotes = handle.onNote?.(createNoteRecorder(params, adapter.runtime ?? null, deps));
  if (handle.conversations !== undefined)
    deps.conversations?.join(
      {
        sessionID,
        role: params.role,
        workItemID: params.role === 'planner' ? null : params.workItemID,
      },
      handle.conversations,
      {
        onWaiting: (waiting) => {
          waitingForAnswer = waiting;
          if (!waiting) armStallTimer();
          else if (stallTimer !== null) clock.clearTimeout(stallTimer);
        },
      },
    );
  armStallTimer();
  const pump = (async () => {
    try {
      for await (const chunk of handle.output) {
        stream.push(chunk);
        armStallTimer();
      }
    } catch (error) {
      logger.debug('agent output ended with an error', { sessionID, error: messageOf(error) });
    } finally {
      stream.end();
    }
  })();

  emit(buildStartedEvent(params, handle.logFilePath, clock.now(), adapter.runtime));
  registry.markStarted(sessionID, stream);

  let terminal: EngineEvent;
  let finalUsage: AgentUsage | null;
  try {
    const result = await handle.result;
    finalUsage = readUsage(handle) ?? liveUsage;
    if (isAgentQuestions(result)) {
      terminal = await buildQuestionsEvent(params, result, deps, {
        logFilePath: handle.logFilePath,
        usage: finalUsage,
        at: clock.now(),
      });
    } else {
      assertResultMatchesRole(result, params);
      terminal = buildCompletedEvent(params, result, handle.logFilePath, finalUsage, clock.now());
    }
  } catch (error) {
    const requested = registry.cancelReasonOf(sessionID);
    const reason = requested ?? failureReasonOf(error);
    finalUsage = readUsage(handle) ?? liveUsage;
    // The runtime's own cap (the SDK's maxBudgetUsd) stopped it: that is the per-run cap.
    const stop: BudgetStop | null =
      reason !== 'budget'
        ? null
        : (budgetStop ?? {
            scope: 'run',
            spentUSD: finalUsage?.costUSD ?? 0,
            capUSD: params.maxBudgetUsd ?? 0,
          });
    terminal = buildFailedEvent(params, {
      reason,
      ...(requested === null && isLimitReason(reason) && { resetsAt: resetsAtOf(error) }),
      error:
        requested === 'timeout'
          ? `no output for ${deps.stallTimeoutMs / 1000}s; cancelled as stalled (${messageOf(error)})`
          : stop !== null
            ? describeBudgetStop(stop)
            : messageOf(error),
      logFilePath: handle.logFilePath,
      usage: finalUsage,
      at: clock.now(),
      ...(stop !== null && { budgetStop: stop }),
    });
  }
  // Its open asks and the questions waiting for it end now ("the agent stopped").
  deps.conversations?.leave(sessionID);
  deps.budget?.runFinished(sessionID, finalUsage?.costUSD ?? null);
  if (stallTimer !== null) clock.clearTimeout(stallTimer);
  unsubscribeActivity?.();
  unsubscribeUsage?.();
  unsubscribeNotes?.();
  // Let the last chunks through, but do not let an adapter whose output never ends keep the run open.
  await Promise.race([pump, new Promise((resolve) => setTimeout(resolve, OUTPUT_DRAIN_GRACE_MS).unref())]);
  stream.end();
  registry.remove(sessionID);
  // The slot is freed before the run's end is reported, so whatever reacts to that end (a retry, the next
  // item) is not refused as a duplicate of a run that is over.
  deps.onFinished(sessionID);
  emit(terminal);
}

/**
 * The engine's side of a run's internal tools (issue #28 §2): each note the runtime hands over is checked
 * again (runtime output is untrusted), redacted, and emitted as `agentNoted`; at most MAX_NOTES_PER_RUN
 * per run. A refused note is logged and dropped; the run goes on.
 */
function createNoteRecorder(
  params: AgentRunRequest,
  runtime: string | null,
  deps: Pick<StartAgentAsyncDeps, 'emit' | 'clock' | 'logger' | 'redact'>,
): (note: AgentNote) => void {
  const redact = deps.redact ?? ((text: string) => text);
  let count = 0;
  return (note) => {
    const { tool, input } = toolOfNote(note);
    const parsed = parseAgentToolCall(tool, input, params.role);
    if (!parsed.ok || count >= MAX_NOTES_PER_RUN) {
      deps.logger.warn('agent note refused', {
        sessionID: params.sessionID,
        role: params.role,
        error: parsed.ok ? `more than ${MAX_NOTES_PER_RUN} notes in one run` : parsed.error,
      });
      return;
    }
    count += 1;
    const clean = Object.fromEntries(
      Object.entries(parsed.note).map(([key, value]) => [key, key === 'kind' ? value : redact(value)]),
    ) as AgentNote;
    deps.emit({
      type: 'agentNoted',
      sessionID: params.sessionID,
      role: params.role,
      workItemID: params.role === 'planner' ? null : params.workItemID,
      runtime,
      note: clean,
      at: deps.clock.now(),
    });
  };
}

function buildStartedEvent(
  params: AgentRunRequest,
  logFilePath: string | null,
  at: number,
  runtime: string | undefined,
): EngineEvent {
  const fields = { sessionID: params.sessionID, logFilePath, at, ...(runtime !== undefined && { runtime }) };
  switch (params.role) {
    case 'planner':
      return { type: 'plannerStarted', ...fields };
    case 'implementor':
      return { type: 'implementorStarted', ...fields };
    case 'reviewer':
      return { type: 'reviewerStarted', ...fields };
  }
}

/**
 * The end of a run that asked a human: `agentAskedQuestions`. An implementor's or reviewer's own item waits;
 * a planner's questions wait on the `questions` item opened for them first. When that item cannot be opened
 * the run fails, naming the questions, and the kept session is discarded.
 */
async function buildQuestionsEvent(
  params: AgentRunRequest,
  questions: AgentQuestions,
  deps: Pick<StartAgentAsyncDeps, 'adapter' | 'emit' | 'openPlannerQuestions'>,
  fields: { logFilePath: string | null; usage: AgentUsage | null; at: number },
): Promise<EngineEvent> {
  if (questions.askedBy !== params.role) {
    throw new Error(`runtime returned questions of a ${questions.askedBy} for a ${params.role} run`);
  }
  let workItemID: string;
  if (params.role === 'planner') {
    try {
      if (deps.openPlannerQuestions === undefined) throw new Error('this engine has no tracker to ask on');
      const opened = await deps.openPlannerQuestions(params);
      for (const event of opened.events) deps.emit(event);
      workItemID = opened.workItemID;
    } catch (error) {
      await deps.adapter.discardSession?.(questions.session).catch(() => {});
      throw new Error(
        `the planner stopped with questions, but no item could be opened for them (${messageOf(error)}): ` +
          questions.questions.join(' | '),
      );
    }
  } else {
    workItemID = params.workItemID;
  }
  return {
    type: 'agentAskedQuestions',
    sessionID: params.sessionID,
    role: params.role,
    workItemID,
    revisionID: params.role === 'reviewer' ? params.revisionID : null,
    questions: questions.questions,
    session: questions.session,
    ...fields,
  };
}

function assertResultMatchesRole(result: AgentResult, params: AgentRunRequest): void {
  // Adapter output is untrusted: a result for another role must not be applied.
  if (!result || typeof result !== 'object' || result.role !== params.role) {
    const got =
      result && typeof result === 'object' ? String((result as { role?: unknown }).role) : typeof result;
    throw new Error(`runtime returned a ${got} result for a ${params.role} run`);
  }
}

function buildCompletedEvent(
  params: AgentRunRequest,
  result: AgentResult,
  logFilePath: string | null,
  usage: AgentUsage | null,
  at: number,
): EngineEvent {
  const base = { sessionID: params.sessionID, logFilePath, usage, at };
  switch (params.role) {
    case 'planner':
      return {
        type: 'plannerCompleted',
        ...base,
        specPaths: params.specPaths,
        result: result as Extract<AgentResult, { role: 'planner' }>,
      };
    case 'implementor':
      return {
        type: 'implementorCompleted',
        ...base,
        workItemID: params.workItemID,
        branchName: params.branchName,
        result: result as Extract<AgentResult, { role: 'implementor' }>,
      };
    case 'reviewer':
      return {
        type: 'reviewerCompleted',
        ...base,
        workItemID: params.workItemID,
        revisionID: params.revisionID,
        result: result as Extract<AgentResult, { role: 'reviewer' }>,
      };
  }
}

interface FailureFields {
  reason: AgentFailureReason;
  error: string;
  resetsAt?: number | null;
  logFilePath: string | null;
  usage: AgentUsage | null;
  at: number;
  budgetStop?: BudgetStop;
}

export function buildFailedEvent(params: AgentRunRequest, fields: FailureFields): EngineEvent {
  const base = { sessionID: params.sessionID, ...fields };
  switch (params.role) {
    case 'planner':
      return { type: 'plannerFailed', ...base, specPaths: params.specPaths };
    case 'implementor':
      return {
        type: 'implementorFailed',
        ...base,
        workItemID: params.workItemID,
        branchName: params.branchName,
      };
    case 'reviewer':
      return {
        type: 'reviewerFailed',
        ...base,
        workItemID: params.workItemID,
        revisionID: params.revisionID,
      };
  }
}
