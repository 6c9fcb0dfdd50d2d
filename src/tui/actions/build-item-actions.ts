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
  const { item, displayStatus, latestRun } = row;
  const id = item.id;
  const actions: ItemAction[] = [];
  const runIsActive =
    latestRun !== null && (latestRun.status === 'requested' || latestRun.status === 'running');
  const isTask = item.kind === 'task';

  if (displayStatus === 'failed' && latestRun !== null) {
    if (latestRun.role === 'implementor' && isTask && item.status !== 'review') {
      actions.push({
        key: 'd',
        label: 'retry',
        confirm: `Retry the implementor on #${id}?`,
        effect: { kind: 'event', event: { type: 'userRequestedImplementorRun', workItemID: id } },
        done: `retry of #${id} requested`,
      });
    }
    if (latestRun.role === 'reviewer' && item.status === 'review' && item.linkedRevision !== null) {
      actions.push({
        key: 'd',
        label: 'retry review',
        confirm: `Retry the reviewer on #${id}?`,
        effect: { kind: 'event', event: { type: 'userRequestedReviewerRun', workItemID: id } },
        done: `review of #${id} requested`,
      });
    }
  } else if (
    isTask &&
    !runIsActive &&
    row.queued === null &&
    (item.status === 'ready' ||
      item.status === 'pending' ||
      item.status === 'blocked' ||
      item.status === 'needs-refinement')
  ) {
    const unmetBlockers = item.blockedBy.filter((blocker) => {
      const status = state.workItems[blocker]?.status;
      return status !== undefined && status !== 'approved' && status !== 'closed';
    });
    actions.push({
      key: 'd',
      label: 'dispatch',
      confirm:
        unmetBlockers.length > 0
          ? `Dispatch an implementor for #${id}? It is still waiting for ${unmetBlockers.map((b) => `#${b}`).join(', ')}.`
          : `Dispatch an implementor for #${id}?`,
      effect: { kind: 'event', event: { type: 'userRequestedImplementorRun', workItemID: id } },
      done: `dispatch of #${id} requested`,
    });
  }

  if (
    item.status === 'review' &&
    item.linkedRevision !== null &&
    !runIsActive &&
    displayStatus !== 'failed'
  ) {
    actions.push({
      key: 'r',
      label: 'review',
      confirm: `Run the reviewer on #${id} now?`,
      effect: { kind: 'event', event: { type: 'userRequestedReviewerRun', workItemID: id } },
      done: `review of #${id} requested`,
    });
  }

  if (runIsActive && latestRun !== null) {
    actions.push({
      key: 'x',
      label: 'cancel',
      confirm: `Cancel the ${latestRun.role} on #${id}? The item is parked as blocked.`,
      effect: { kind: 'event', event: { type: 'userCancelledRun', sessionID: latestRun.sessionID } },
      done: `cancel of the ${latestRun.role} on #${id} requested`,
    });
  }

  if ((item.status === 'blocked' || item.status === 'needs-refinement') && !runIsActive) {
    actions.push({
      key: 'u',
      label: 'to pending',
      confirm: null,
      effect: {
        kind: 'event',
        event: { type: 'userTransitionedStatus', workItemID: id, newStatus: 'pending' },
      },
      done: `#${id} moved to pending (fresh retry budget)`,
    });
  }

  if (item.status === 'approved' && item.linkedRevision !== null) {
    const revision = state.revisions[item.linkedRevision];
    actions.push({
      key: 'm',
      label: 'merge',
      confirm: `Merge ${revision ? `${revision.headRef} (revision ${revisionName(revision)})` : `revision ${revisionName({ id: item.linkedRevision })}`} into the default branch and close #${id}?`,
      effect: { kind: 'event', event: { type: 'userRequestedMerge', workItemID: id } },
      done: `merge of #${id} requested`,
    });
  }

  if (item.linkedRevision !== null && state.revisions[item.linkedRevision] !== undefined) {
    actions.push({
      key: 'v',
      label: 'diff',
      confirm: null,
      effect: { kind: 'diff', revisionID: item.linkedRevision },
      done: '',
    });
  }

  if (latestRun?.logFilePath) {
    actions.push({
      key: 'l',
      label: 'transcript',
      confirm: null,
      effect: { kind: 'file', title: 'transcript', path: latestRun.logFilePath },
      done: '',
    });
  }

  // The local provider keeps the checks log as a file; other providers link to their CI instead.
  const checksLog = item.linkedRevision === null ? null : state.revisions[item.linkedRevision]?.pipeline?.url;
  if (checksLog && isAbsolute(checksLog)) {
    actions.push({
      key: 'c',
      label: 'checks log',
      confirm: null,
      effect: { kind: 'file', title: 'checks log', path: checksLog },
      done: '',
    });
  }
  return actions;
}
