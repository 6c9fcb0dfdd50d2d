import {
  type AgentFailureReason,
  type AgentResult,
  type AgentUsage,
  type EngineEvent,
  isLimitReason,
} from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { createOutputBroadcast } from '../../shared/create-output-broadcast.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { Clock } from '../engine-config.ts';
import {
  type AgentRunHandle,
  type AgentRunRequest,
  type AgentStartParams,
  failureReasonOf,
  type RuntimeAdapter,
  resetsAtOf,
} from '../runtime-contract/runtime-contract.ts';
import type { RunRegistry } from './run-registry.ts';

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
    handle = await adapter.startAgent(startParams);
  } catch (error) {
    const cancelled = registry.cancelReasonOf(sessionID);
    logger.warn('agent provisioning failed', { sessionID, role: params.role, error: messageOf(error) });
    registry.remove(sessionID);
    deps.onFinished(sessionID);
    emit(
      buildFailedEvent(params, {
        reason: cancelled ?? 'error',
        error: `provisioning failed: ${messageOf(error)}`,
        logFilePath: null,
        usage: null,
        at: clock.now(),
      }),
    );
    return;
  }

  const stream = createOutputBroadcast();
  let stallTimer: unknown = null;
  const armStallTimer = () => {
    if (deps.stallTimeoutMs <= 0) return;
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
  try {
    const result = await handle.result;
    assertResultMatchesRole(result, params);
    terminal = buildCompletedEvent(params, result, handle.logFilePath, readUsage(handle), clock.now());
  } catch (error) {
    const requested = registry.cancelReasonOf(sessionID);
    const reason = requested ?? failureReasonOf(error);
    terminal = buildFailedEvent(params, {
      reason,
      ...(requested === null && isLimitReason(reason) && { resetsAt: resetsAtOf(error) }),
      error:
        requested === 'timeout'
          ? `no output for ${deps.stallTimeoutMs / 1000}s; cancelled as stalled (${messageOf(error)})`
          : messageOf(error),
      logFilePath: handle.logFilePath,
      usage: readUsage(handle),
      at: clock.now(),
    });
  }
  if (stallTimer !== null) clock.clearTimeout(stallTimer);
  unsubscribeActivity?.();
  // Let the last chunks through, but do not let an adapter whose output never ends keep the run open.
  await Promise.race([pump, new Promise((resolve) => setTimeout(resolve, OUTPUT_DRAIN_GRACE_MS).unref())]);
  stream.end();
  registry.remove(sessionID);
  // The slot is freed before the run's end is reported, so whatever reacts to that end (a retry, the next
  // item) is not refused as a duplicate of a run that is over.
  deps.onFinished(sessionID);
  emit(terminal);
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
