import { isAbsolute } from 'node:path';
import { type EngineEvent, revisionName } from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/index.ts';
import type { WorkItemRow } from '../view-model/build-work-item-sections.ts';

export type ItemActionKey = 'd' | 'r' | 'x' | 'u' | 'm' | 'v' | 'l' | 'c';

/** Something the user can do to the selected item: an engine event, or opening a file (transcript, log). */
export interface ItemAction {
  key: ItemActionKey;
  /** Short name for the footer: `dispatch`, `retry`, `cancel`… */
  label: string;
  /** Asked before acting (y/n) when the action is destructive or starts paid work; null acts at once. */
  confirm: string | null;
  effect:
    | { kind: 'event'; event: EngineEvent }
    | { kind: 'file'; title: string; path: string }
    | { kind: 'transcript'; sessionID: string; path: string | null }
    | { kind: 'diff'; revisionID: string };
  /** Told after acting. */
  done: string;
}

/**
 * The actions that apply to a row right now, in key order. Each becomes an ordinary engine event, so the
 * engine's guards and policy decide exactly as they would for automatic dispatch; this only decides which
 * keys make sense to offer.
 */
export function buildItemActions(row: WorkItemRow, state: EngineState): ItemAction[] {
  const { latestRun } = row;
  const runIsActive =
    latestRun !== null && (latestRun.status === 'requested' || latestRun.status === 'running');
  const context: ActionContext = { row, state, id: row.item.id, runIsActive };
  return ACTION_BUILDERS.map((build) => build(context)).filter(
    (action): action is ItemAction => action !== null,
  );
}

interface ActionContext {
  row: WorkItemRow;
  state: EngineState;
  id: string;
  /** Whether the item's latest run is requested or running. */
  runIsActive: boolean;
}

/** d: retry a failed run, or dispatch an implementor for a task that waits. */
function buildDispatchAction({ row, state, id, runIsActive }: ActionContext): ItemAction | null {
  const { item, displayStatus, latestRun } = row;
  if (displayStatus === 'failed' && latestRun !== null) return buildRetryAction(row, latestRun.role);
  const waits =
    item.status === 'ready' ||
    item.status === 'pending' ||
    item.status === 'blocked' ||
    item.status === 'needs-refinement';
  if (item.kind !== 'task' || runIsActive || row.queued !== null || !waits) return null;
  const unmetBlockers = item.blockedBy.filter((blocker) => {
    const status = state.workItems[blocker]?.status;
    return status !== undefined && status !== 'approved' && status !== 'closed';
  });
  return {
    key: 'd',
    label: 'dispatch',
    confirm:
      unmetBlockers.length > 0
        ? `Dispatch an implementor for #${id}? It is still waiting for ${unmetBlockers.map((b) => `#${b}`).join(', ')}.`
        : `Dispatch an implementor for #${id}?`,
    effect: { kind: 'event', event: { type: 'userRequestedImplementorRun', workItemID: id } },
    done: `dispatch of #${id} requested`,
  };
}

function buildRetryAction(row: WorkItemRow, role: string): ItemAction | null {
  const { item } = row;
  const id = item.id;
  if (role === 'implementor' && item.kind === 'task' && item.status !== 'review') {
    return {
      key: 'd',
      label: 'retry',
      confirm: `Retry the implementor on #${id}?`,
      effect: { kind: 'event', event: { type: 'userRequestedImplementorRun', workItemID: id } },
      done: `retry of #${id} requested`,
    };
  }
  if (role === 'reviewer' && item.status === 'review' && item.linkedRevision !== null) {
    return {
      key: 'd',
      label: 'retry review',
      confirm: `Retry the reviewer on #${id}?`,
      effect: { kind: 'event', event: { type: 'userRequestedReviewerRun', workItemID: id } },
      done: `review of #${id} requested`,
    };
  }
  return null;
}

function buildReviewAction({ row, id, runIsActive }: ActionContext): ItemAction | null {
  const { item } = row;
  if (item.status !== 'review' || item.linkedRevision === null || runIsActive) return null;
  if (row.displayStatus === 'failed') return null;
  return {
    key: 'r',
    label: 'review',
    confirm: `Run the reviewer on #${id} now?`,
    effect: { kind: 'event', event: { type: 'userRequestedReviewerRun', workItemID: id } },
    done: `review of #${id} requested`,
  };
}

function buildCancelAction({ row, id, runIsActive }: ActionContext): ItemAction | null {
  const run = row.latestRun;
  if (!runIsActive || run === null) return null;
  return {
    key: 'x',
    label: 'cancel',
    confirm: `Cancel the ${run.role} on #${id}? The item is parked as blocked.`,
    effect: { kind: 'event', event: { type: 'userCancelledRun', sessionID: run.sessionID } },
    done: `cancel of the ${run.role} on #${id} requested`,
  };
}

function buildToPendingAction({ row, id, runIsActive }: ActionContext): ItemAction | null {
  const { status } = row.item;
  if ((status !== 'blocked' && status !== 'needs-refinement') || runIsActive) return null;
  return {
    key: 'u',
    label: 'to pending',
    confirm: null,
    effect: {
      kind: 'event',
      event: { type: 'userTransitionedStatus', workItemID: id, newStatus: 'pending' },
    },
    done: `#${id} moved to pending (fresh retry budget)`,
  };
}

function buildMergeAction({ row, state, id }: ActionContext): ItemAction | null {
  const { item } = row;
  if (item.status !== 'approved' || item.linkedRevision === null) return null;
  const revision = state.revisions[item.linkedRevision];
  return {
    key: 'm',
    label: 'merge',
    confirm: `Merge ${revision ? `${revision.headRef} (revision ${revisionName(revision)})` : `revision ${revisionName({ id: item.linkedRevision })}`} into the default branch and close #${id}?`,
    effect: { kind: 'event', event: { type: 'userRequestedMerge', workItemID: id } },
    done: `merge of #${id} requested`,
  };
}

function buildDiffAction({ row, state }: ActionContext): ItemAction | null {
  const revisionID = row.item.linkedRevision;
  if (revisionID === null || state.revisions[revisionID] === undefined) return null;
  return { key: 'v', label: 'diff', confirm: null, effect: { kind: 'diff', revisionID }, done: '' };
}

/**
 * A run with a transcript file here, or one that started on another machine of a cluster (its file is there;
 * its worker streams it to PostgreSQL, src/cluster/README.md "Transcripts across machines").
 */
function buildTranscriptAction({ row }: ActionContext): ItemAction | null {
  const run = row.latestRun;
  if (run === null || (!run.logFilePath && run.status === 'requested')) return null;
  return {
    key: 'l',
    label: 'transcript',
    confirm: null,
    effect: { kind: 'transcript', sessionID: run.sessionID, path: run.logFilePath || null },
    done: '',
  };
}

/** The local provider keeps the checks log as a file; other providers link to their CI instead. */
function buildChecksLogAction({ row, state }: ActionContext): ItemAction | null {
  const revisionID = row.item.linkedRevision;
  const path = revisionID === null ? null : state.revisions[revisionID]?.pipeline?.url;
  if (!path || !isAbsolute(path)) return null;
  return {
    key: 'c',
    label: 'checks log',
    confirm: null,
    effect: { kind: 'file', title: 'checks log', path },
    done: '',
  };
}

/** In key order. */
const ACTION_BUILDERS: readonly ((context: ActionContext) => ItemAction | null)[] = [
  buildDispatchAction,
  buildReviewAction,
  buildCancelAction,
  buildToPendingAction,
  buildMergeAction,
  buildDiffAction,
  buildTranscriptAction,
  buildChecksLogAction,
];
