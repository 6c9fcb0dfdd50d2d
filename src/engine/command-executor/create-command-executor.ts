import type { AgentRunRequestCommand, EngineCommand, EngineEvent } from '../../domain/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { createMergeQueueStepper } from './advance-merge-queue.ts';
import { applyImplementorResult } from './apply-implementor-result.ts';
import { applyModeResult, proposeModeResult } from './apply-mode-result.ts';
import { applyPlannerResult } from './apply-planner-result.ts';
import { applyReviewerResult } from './apply-reviewer-result.ts';
import { cancelAgentRun } from './cancel-agent-run.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { discardWaitingSession } from './discard-waiting-session.ts';
import { guardCommand } from './guards/guard-command.ts';
import { guardRunRequest } from './guards/guard-run-request.ts';
import { mergeRevision } from './merge-revision.ts';
import { markProposalStale, proposePlan } from './propose-plan.ts';
import { replyToRevisionFeedback } from './reply-to-revision-feedback.ts';
import { requestAgentRun } from './request-agent-run.ts';
import { writeRevision } from './write-revision.ts';
import { writeWorkItem } from './write-work-item.ts';

export interface CommandExecutor {
  /** guards → policy → translation. Never throws: failures come back as commandRejected/commandFailed. */
  execute(command: EngineCommand, snapshot: EngineState): Promise<EngineEvent[]>;
  /** The guard and policy checks alone, for a queued run request about to start. */
  checkRunRequest(
    command: AgentRunRequestCommand,
    state: EngineState,
  ): { ok: true } | { ok: false; reason: string };
}

/** Sends each command to the module of its family; each module's doc comment says what it writes. */
function translate(
  command: EngineCommand,
  state: EngineState,
  deps: CommandExecutorDeps,
  advanceMergeQueue: ReturnType<typeof createMergeQueueStepper>,
): EngineEvent[] | Promise<EngineEvent[]> {
  switch (command.type) {
    case 'transitionWorkItemStatus':
    case 'createWorkItem':
    case 'updateWorkItem':
    case 'commentOnWorkItem':
      return writeWorkItem(command, state, deps);
    case 'createRevisionFromPatch':
    case 'updateRevision':
    case 'postRevisionReview':
    case 'updateRevisionReview':
    case 'commentOnRevision':
      return writeRevision(command, state, deps);
    case 'replyToRevisionFeedback':
      return replyToRevisionFeedback(command, deps);
    case 'mergeRevision':
      return mergeRevision(command, state, deps);
    case 'advanceMergeQueue':
      return advanceMergeQueue(command, state, deps);
    case 'requestPlannerRun':
    case 'requestImplementorRun':
    case 'requestReviewerRun':
      return requestAgentRun(command, state, deps);
    case 'cancelPlannerRun':
    case 'cancelImplementorRun':
    case 'cancelReviewerRun':
      return cancelAgentRun(command, state, deps);
    case 'applyPlannerResult':
      return applyPlannerResult(command, state, deps);
    case 'applyImplementorResult':
      return applyImplementorResult(command, state, deps);
    case 'applyReviewerResult':
      return applyReviewerResult(command, state, deps);
    case 'discardWaitingSession':
      return discardWaitingSession(command, state, deps);
    case 'proposePlan':
      return proposePlan(command, state, deps);
    case 'markProposalStale':
      return markProposalStale(command, state, deps);
    case 'proposeModeResult':
      return proposeModeResult(command, state, deps);
    case 'applyModeResult':
      return applyModeResult(command, state, deps);
  }
}

/**
 * The only place the engine writes to the outside world. Every command is checked by the guards
 * (`guards/`), then by the configured policy, then translated by the module of its family; a rejection or
 * a thrown error becomes an event, so the engine loop never sees an exception from here.
 */
export function createCommandExecutor(deps: CommandExecutorDeps): CommandExecutor {
  const { clock, logger } = deps;
  const advanceMergeQueue = createMergeQueueStepper();
  return {
    async execute(command, snapshot) {
      const at = clock.now();
      const verdict = guardCommand(command, snapshot, deps);
      if (!verdict.ok) {
        const log = verdict.kind === 'duplicate' ? logger.debug : logger.warn;
        log('command rejected', { command: command.type, reason: verdict.reason });
        return [{ type: 'commandRejected', command, reason: verdict.reason, kind: verdict.kind, at }];
      }
      const decision = deps.policy(command, snapshot);
      if (!decision.allowed) {
        logger.info('command refused by policy', { command: command.type, reason: decision.reason });
        return [{ type: 'commandRejected', command, reason: decision.reason, kind: 'policy', at }];
      }
      try {
        const write = async () => translate(command, snapshot, deps, advanceMergeQueue);
        return await (deps.fence === undefined ? write() : deps.fence(write));
      } catch (error) {
        logger.error('command failed', { command: command.type, error: messageOf(error) });
        return [{ type: 'commandFailed', command, error: messageOf(error), at: clock.now() }];
      }
    },
    checkRunRequest(command, state) {
      const verdict = guardRunRequest(command, state, deps);
      if (!verdict.ok) return verdict;
      const decision = deps.policy(command, state);
      return decision.allowed ? { ok: true } : { ok: false, reason: decision.reason };
    },
  };
}
