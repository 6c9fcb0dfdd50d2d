import type {
  AgentRunRequestCommand,
  ApplyImplementorResult,
  ApplyPlannerResult,
  ApplyReviewerResult,
  EngineCommand,
  EngineEvent,
  MergeRevision,
  RejectionKind,
  Revision,
  WorkItem,
  WorkItemStatus,
} from '../../domain/index.ts';
import { isAgentRunActive, isAllowedWorkItemTransition } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { RevisionWriter, WorkItemWriter } from '../../providers/types.ts';
import type { Clock, Policy } from '../engine-config.ts';
import type { Scheduler } from '../scheduler/create-scheduler.ts';
import { buildDispatchKey } from '../state-store/dispatch-key.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { orderPlannedCreates } from './order-planned-creates.ts';
import type { RunRegistry } from './run-registry.ts';

export interface CommandExecutorDeps {
  workItemWriter: WorkItemWriter;
  revisionWriter: RevisionWriter;
  scheduler: Scheduler;
  registry: RunRegistry;
  policy: Policy;
  clock: Clock;
  logger: Logger;
  /**
   * Asks for a poll of every provider once the queue is empty. A merge moves the default branch, which
   * can change what the pollers see beyond the item and revision it reports (specs, other items).
   */
  requestPoll: () => void;
}

export interface CommandExecutor {
  /** guards → policy → translation. Never throws: failures come back as commandRejected/commandFailed. */
  execute(command: EngineCommand, snapshot: EngineState): Promise<EngineEvent[]>;
  /** The guard and policy checks alone, for a queued run request about to start. */
  checkRunRequest(
    command: AgentRunRequestCommand,
    state: EngineState,
  ): { ok: true } | { ok: false; reason: string };
}

type GuardVerdict = { ok: true } | { ok: false; kind: RejectionKind; reason: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function workItemChanged(item: WorkItem, oldStatus: WorkItemStatus | null): EngineEvent {
  return { type: 'workItemChanged', workItemID: item.id, workItem: item, oldStatus, newStatus: item.status };
}

function revisionChanged(revision: Revision, previous: Revision | undefined): EngineEvent {
  return {
    type: 'revisionChanged',
    revisionID: revision.id,
    workItemID: revision.workItemID,
    revision,
    oldPipelineStatus: previous?.pipeline?.status ?? null,
    newPipelineStatus: revision.pipeline?.status ?? null,
  };
}

/** Why a mergeRevision command is refused when the provider has no merge capability. */
export const CANNOT_MERGE_REASON = 'this provider cannot merge; merge the revision in the tracker';

function hasActiveRunForWorkItem(state: EngineState, workItemID: string): boolean {
  return Object.values(state.agentRuns).some(
    (run) => run.role !== 'planner' && run.workItemID === workItemID && isAgentRunActive(run),
  );
}

function hasActivePlanner(state: EngineState): boolean {
  return Object.values(state.agentRuns).some((run) => run.role === 'planner' && isAgentRunActive(run));
}

export function createCommandExecutor(deps: CommandExecutorDeps): CommandExecutor {
  const { workItemWriter, revisionWriter, scheduler, registry, clock, logger } = deps;

  /** Duplicate checks see the snapshot AND runs admitted earlier in this burst (not yet in the store). */
  function guardRunRequest(command: AgentRunRequestCommand, state: EngineState): GuardVerdict {
    if (command.type === 'requestPlannerRun') {
      if (hasActivePlanner(state) || scheduler.isKeyActive(buildDispatchKey(command))) {
        return { ok: false, kind: 'duplicate', reason: 'planner already running' };
      }
      if (command.specPaths.length === 0) return { ok: false, kind: 'invalid', reason: 'no specs to plan' };
      return { ok: true };
    }
    const item = state.workItems[command.workItemID];
    if (
      hasActiveRunForWorkItem(state, command.workItemID) ||
      scheduler.isWorkItemActive(command.workItemID)
    ) {
      return { ok: false, kind: 'duplicate', reason: 'agent already running for work item' };
    }
    if (!item) return { ok: false, kind: 'invalid', reason: `work item #${command.workItemID} is not known` };
    if (command.type === 'requestImplementorRun') {
      if (item.kind === 'refinement') {
        return {
          ok: false,
          kind: 'invalid',
          reason: `#${item.id} is a refinement item; implementors never take those`,
        };
      }
      if (item.status !== 'ready') {
        return { ok: false, kind: 'invalid', reason: `#${item.id} is ${item.status}, not ready` };
      }
      return { ok: true };
    }
    if (item.status !== 'review') {
      return { ok: false, kind: 'invalid', reason: `#${item.id} is ${item.status}, not in review` };
    }
    if (!state.revisions[command.revisionID]) {
      return { ok: false, kind: 'invalid', reason: `revision ${command.revisionID} is not known` };
    }
    return { ok: true };
  }

  /** Only the open revision of an approved item is merged, and only by a provider that can merge. */
  function guardMerge(command: MergeRevision, state: EngineState): GuardVerdict {
    if (revisionWriter.mergeRevision === undefined) {
      return { ok: false, kind: 'invalid', reason: CANNOT_MERGE_REASON };
    }
    const item = state.workItems[command.workItemID];
    if (!item) return { ok: false, kind: 'invalid', reason: `work item #${command.workItemID} is not known` };
    if (item.status !== 'approved') {
      return { ok: false, kind: 'invalid', reason: `#${item.id} is ${item.status}, not approved` };
    }
    if (item.linkedRevision !== command.revisionID || !state.revisions[command.revisionID]) {
      return {
        ok: false,
        kind: 'invalid',
        reason: `revision ${command.revisionID} is not the open revision of #${item.id}`,
      };
    }
    return { ok: true };
  }

  function guard(command: EngineCommand, state: EngineState): GuardVerdict {
    switch (command.type) {
      case 'requestPlannerRun':
      case 'requestImplementorRun':
      case 'requestReviewerRun':
        return guardRunRequest(command, state);
      case 'transitionWorkItemStatus': {
        const item = state.workItems[command.workItemID];
        if (!item)
          return { ok: false, kind: 'invalid', reason: `work item #${command.workItemID} is not known` };
        if (
          item.status !== command.newStatus &&
          !isAllowedWorkItemTransition(item.status, command.newStatus, command.cause)
        ) {
          return {
            ok: false,
            kind: 'invalid',
            reason: `#${item.id} cannot move ${item.status} → ${command.newStatus} (${command.cause})`,
          };
        }
        return { ok: true };
      }
      case 'mergeRevision':
        return guardMerge(command, state);
      default:
        return { ok: true };
    }
  }

  async function transition(item: WorkItem, newStatus: WorkItemStatus, patch: Partial<WorkItem> = {}) {
    await workItemWriter.transitionStatus(item.id, newStatus);
    return workItemChanged({ ...item, ...patch, status: newStatus }, item.status);
  }

  async function applyPlannerResult(command: ApplyPlannerResult, state: EngineState): Promise<EngineEvent[]> {
    const { result } = command;
    const known = new Set(Object.keys(state.workItems));
    const ordered = orderPlannedCreates(result.create, known);
    if (!ordered.ok) throw new Error(`planner result rejected, nothing written: ${ordered.error}`);
    for (const id of [...result.close, ...result.update.map((u) => u.workItemID)]) {
      if (!known.has(id))
        throw new Error(`planner result rejected, nothing written: work item #${id} is not known`);
    }
    const events: EngineEvent[] = [];
    try {
      const realIDs = new Map<string, string>();
      for (const create of ordered.order) {
        const created = await workItemWriter.createWorkItem({
          title: create.title,
          body: create.body,
          labels: create.labels,
          blockedBy: create.blockedBy.map((ref) => realIDs.get(ref) ?? ref),
        });
        realIDs.set(create.tempID, created.id);
        events.push(workItemChanged(created, null));
      }
      for (const id of result.close) {
        const item = state.workItems[id];
        if (!item || item.status === 'closed') continue;
        events.push(await transition(item, 'closed'));
      }
      for (const update of result.update) {
        await workItemWriter.updateWorkItem(update.workItemID, { body: update.body, labels: update.labels });
      }
    } catch (error) {
      // What was written is real: report it along with the failure so the store does not lose it.
      events.push({ type: 'commandFailed', command, error: messageOf(error), at: clock.now() });
    }
    return events;
  }

  async function applyImplementorResult(
    command: ApplyImplementorResult,
    state: EngineState,
  ): Promise<EngineEvent[]> {
    const item = state.workItems[command.workItemID];
    if (!item) throw new Error(`work item #${command.workItemID} is not known`);
    const { result } = command;
    if (result.outcome === 'blocked' || result.outcome === 'validation-failure') {
      const label = result.outcome === 'blocked' ? 'reported a blocker' : 'could not validate its change';
      await workItemWriter.addComment(item.id, `Implementor ${label}:\n\n${result.summary}`);
      return [await transition(item, result.outcome === 'blocked' ? 'blocked' : 'needs-refinement')];
    }
    let revision: Revision;
    try {
      if (!result.patch || result.patch.trim() === '')
        throw new Error('the completed result carries no patch');
      revision = await revisionWriter.createFromPatch({
        workItemID: item.id,
        patch: result.patch,
        branchName: command.branchName,
        title: item.title,
        body: `Closes #${item.id}\n\n${result.summary}`,
      });
    } catch (error) {
      // The change cannot become a revision (e.g. it no longer applies): park the item for a human.
      const message = `could not create a revision from the implementor's patch: ${messageOf(error)}`;
      await workItemWriter.addComment(item.id, `${message}\n\nImplementor summary:\n\n${result.summary}`);
      return [
        { type: 'commandFailed', command, error: message, at: clock.now() },
        await transition(item, 'blocked'),
      ];
    }
    await workItemWriter.addComment(
      item.id,
      `Implementor completed revision ${revision.id}:\n\n${result.summary}`,
    );
    return [
      revisionChanged(revision, state.revisions[revision.id]),
      await transition(item, 'review', { linkedRevision: revision.id }),
    ];
  }

  async function applyReviewerResult(
    command: ApplyReviewerResult,
    state: EngineState,
  ): Promise<EngineEvent[]> {
    const item = state.workItems[command.workItemID];
    if (!item) throw new Error(`work item #${command.workItemID} is not known`);
    const revision = state.revisions[command.revisionID];
    if (!revision) throw new Error(`revision ${command.revisionID} is not known`);
    const reviewID = revision.reviewID
      ? await revisionWriter.updateReview(revision.id, revision.reviewID, command.review)
      : await revisionWriter.postReview(revision.id, command.review);
    const approved = command.review.verdict === 'approve';
    await workItemWriter.addComment(
      item.id,
      `${approved ? 'Reviewer approved' : 'Reviewer requested changes on'} revision ${revision.id}:\n\n${command.review.summary}`,
    );
    // The item's new status first: the revision update must not look like a green revision still in review.
    return [
      await transition(item, approved ? 'approved' : command.needsChangesStatus),
      revisionChanged({ ...revision, reviewID }, revision),
    ];
  }

  async function mergeRevision(command: MergeRevision, state: EngineState): Promise<EngineEvent[]> {
    if (revisionWriter.mergeRevision === undefined) throw new Error(CANNOT_MERGE_REASON);
    const item = state.workItems[command.workItemID]!;
    const revision = state.revisions[command.revisionID]!;
    const result = await revisionWriter.mergeRevision(command.revisionID);
    deps.requestPoll();
    // What the pollers would report next, reported now: the item closed, the revision gone from the open ones.
    return [
      workItemChanged(result.workItem, item.status),
      {
        type: 'revisionChanged',
        revisionID: revision.id,
        workItemID: revision.workItemID,
        revision: null,
        oldPipelineStatus: revision.pipeline?.status ?? null,
        newPipelineStatus: null,
      },
    ];
  }

  function cancelRun(
    state: EngineState,
    match: (run: EngineState['agentRuns'][string]) => boolean,
  ): EngineEvent[] {
    const run = Object.values(state.agentRuns).find((r) => match(r) && isAgentRunActive(r));
    if (run) registry.cancel(run.sessionID, 'cancelled');
    return [];
  }

  async function translate(command: EngineCommand, state: EngineState): Promise<EngineEvent[]> {
    switch (command.type) {
      case 'transitionWorkItemStatus': {
        const item = state.workItems[command.workItemID]!;
        if (item.status === command.newStatus) return [];
        return [await transition(item, command.newStatus)];
      }
      case 'createWorkItem': {
        const { type: _type, ...input } = command;
        return [workItemChanged(await workItemWriter.createWorkItem(input), null)];
      }
      case 'updateWorkItem':
        await workItemWriter.updateWorkItem(command.workItemID, {
          body: command.body,
          labels: command.labels,
        });
        return [];
      case 'commentOnWorkItem':
        await workItemWriter.addComment(command.workItemID, command.body);
        return [];
      case 'createRevisionFromPatch': {
        const item = state.workItems[command.workItemID];
        const revision = await revisionWriter.createFromPatch({
          workItemID: command.workItemID,
          patch: command.patch,
          branchName: command.branchName,
          title: item?.title ?? `Work item #${command.workItemID}`,
          body: command.body,
        });
        return [revisionChanged(revision, state.revisions[revision.id])];
      }
      case 'updateRevision':
        await revisionWriter.updateBody(command.revisionID, command.body);
        return [];
      case 'postRevisionReview': {
        const reviewID = await revisionWriter.postReview(command.revisionID, command.review);
        const revision = state.revisions[command.revisionID];
        return revision ? [revisionChanged({ ...revision, reviewID }, revision)] : [];
      }
      case 'updateRevisionReview': {
        const revision = state.revisions[command.revisionID];
        if (!revision?.reviewID) throw new Error(`revision ${command.revisionID} has no review to update`);
        const reviewID = await revisionWriter.updateReview(revision.id, revision.reviewID, command.review);
        return [revisionChanged({ ...revision, reviewID }, revision)];
      }
      case 'commentOnRevision':
        await revisionWriter.postComment(command.revisionID, command.body);
        return [];
      case 'mergeRevision':
        return mergeRevision(command, state);
      case 'requestPlannerRun':
      case 'requestImplementorRun':
      case 'requestReviewerRun':
        return scheduler.submit(command, state);
      case 'cancelPlannerRun':
        return cancelRun(state, (run) => run.role === 'planner');
      case 'cancelImplementorRun':
        return cancelRun(state, (run) => run.role === 'implementor' && run.workItemID === command.workItemID);
      case 'cancelReviewerRun':
        return cancelRun(state, (run) => run.role === 'reviewer' && run.workItemID === command.workItemID);
      case 'applyPlannerResult':
        return applyPlannerResult(command, state);
      case 'applyImplementorResult':
        return applyImplementorResult(command, state);
      case 'applyReviewerResult':
        return applyReviewerResult(command, state);
    }
  }

  return {
    async execute(command, snapshot) {
      const at = clock.now();
      const verdict = guard(command, snapshot);
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
        return await translate(command, snapshot);
      } catch (error) {
        logger.error('command failed', { command: command.type, error: messageOf(error) });
        return [{ type: 'commandFailed', command, error: messageOf(error), at: clock.now() }];
      }
    },
    checkRunRequest(command, state) {
      const verdict = guardRunRequest(command, state);
      if (!verdict.ok) return verdict;
      const decision = deps.policy(command, state);
      return decision.allowed ? { ok: true } : { ok: false, reason: decision.reason };
    },
  };
}
