import type { ImplementorRun, ReviewerRun, WorkItem } from '../../domain/index.ts';

/**
 * What the dashboard shows for a work item (docs/reference-behaviour.md §10, plus `queued`: a run request waiting for an
 * agent slot or a retry backoff, which the published dashboard showed as plain `dispatch`).
 */
export type DisplayStatus =
  | 'implementing'
  | 'reviewing'
  | 'queued'
  | 'failed'
  | 'approved'
  | 'blocked'
  | 'needs-refinement'
  | 'waiting-for-input'
  | 'dispatch'
  | 'pending';

export interface DisplayStatusStyle {
  /** Fixed-width label shown in the list. */
  label: string;
  icon: string;
  color: 'green' | 'red' | 'yellow' | 'magenta' | 'cyan' | 'blue' | 'gray' | 'white';
  /** Sort weight inside a section: higher first. */
  weight: number;
}

export const DISPLAY_STATUS_STYLES: Readonly<Record<DisplayStatus, DisplayStatusStyle>> = {
  approved: { label: 'APPROVED', icon: '✔', color: 'green', weight: 100 },
  failed: { label: 'FAILED', icon: '✖', color: 'red', weight: 90 },
  blocked: { label: 'BLOCKED', icon: '⊘', color: 'red', weight: 80 },
  'needs-refinement': { label: 'REFINE', icon: '✎', color: 'magenta', weight: 70 },
  'waiting-for-input': { label: 'ASKS', icon: '?', color: 'yellow', weight: 75 },
  implementing: { label: 'WIP', icon: '⚙', color: 'cyan', weight: 60 },
  reviewing: { label: 'REVIEW', icon: '◎', color: 'blue', weight: 55 },
  queued: { label: 'QUEUED', icon: '⧗', color: 'yellow', weight: 50 },
  dispatch: { label: 'DISPATCH', icon: '●', color: 'white', weight: 50 },
  pending: { label: 'PENDING', icon: '◌', color: 'gray', weight: 40 },
};

/** The statuses that mean an agent is working or about to; they make up the AGENTS section. */
export const AGENT_DISPLAY_STATUSES: readonly DisplayStatus[] = ['implementing', 'reviewing', 'queued'];

/** The statuses that wait for a human; they make up the ACTION section. */
export const ACTION_DISPLAY_STATUSES: readonly DisplayStatus[] = [
  'approved',
  'failed',
  'blocked',
  'needs-refinement',
  'waiting-for-input',
];

/**
 * Precedence: an active run, then a queued run request, then a failed or timed-out latest run (a cancelled
 * run does not count, and a human who moved the item to pending or an approval since then wins), then the
 * tracker status. Closed items are never shown (null).
 */
export function buildDisplayStatus(
  item: WorkItem,
  latestRun: ImplementorRun | ReviewerRun | null,
  hasQueuedDispatch: boolean,
): DisplayStatus | null {
  if (item.status === 'closed') return null;
  if (latestRun !== null && (latestRun.status === 'requested' || latestRun.status === 'running')) {
    return latestRun.role === 'implementor' ? 'implementing' : 'reviewing';
  }
  if (hasQueuedDispatch) return 'queued';
  if (
    latestRun !== null &&
    (latestRun.status === 'failed' || latestRun.status === 'timed-out') &&
    item.status !== 'pending' &&
    item.status !== 'approved'
  ) {
    return 'failed';
  }
  switch (item.status) {
    case 'pending':
      return 'pending';
    case 'ready':
      return 'dispatch';
    case 'in-progress':
      return 'implementing';
    case 'review':
      return 'reviewing';
    case 'approved':
      return 'approved';
    case 'needs-refinement':
      return 'needs-refinement';
    case 'blocked':
      return 'blocked';
    case 'waiting-for-input':
      return 'waiting-for-input';
  }
}
