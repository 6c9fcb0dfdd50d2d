import type { WorkItem, WorkItemStatus } from '../../src/domain/work-item.ts';

/** A run as `GET /api/runs` returns it (`flotilla runs --json`), the fields the board reads. */
export interface BoardRun {
  sessionID: string;
  role: string;
  status: string;
  workItemID: string | null;
  costUSD: number | null;
}

export type BoardColumnID = 'pending' | 'in-progress' | 'review' | 'waiting' | 'approved' | 'done';

export interface BoardCard {
  item: WorkItem;
  /** The agent working on it now (`implementing`, `reviewing`), or its latest run failed; else null. */
  badge: 'implementing' | 'reviewing' | 'failed' | null;
}

export interface BoardColumn {
  id: BoardColumnID;
  title: string;
  cards: BoardCard[];
  /** Cards left out (the merged/closed column keeps only the newest). */
  hidden: number;
}

const COLUMNS: readonly { id: BoardColumnID; title: string; statuses: readonly WorkItemStatus[] }[] = [
  { id: 'pending', title: 'Pending', statuses: ['pending', 'ready'] },
  { id: 'in-progress', title: 'In progress', statuses: ['in-progress'] },
  { id: 'review', title: 'Review', statuses: ['review'] },
  // What `run --until-idle` and the terminal dashboard's header count as waiting on a human.
  { id: 'waiting', title: 'Waiting on you', statuses: ['waiting-for-input', 'needs-refinement', 'blocked'] },
  { id: 'approved', title: 'Approved', statuses: ['approved'] },
  { id: 'done', title: 'Merged / closed', statuses: ['closed'] },
];

const PRIORITY_WEIGHT: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };
/** The merged/closed column shows this many, newest first. */
export const DONE_SHOWN = 50;

/**
 * The board: one column per stage, cards by priority then id (numerically), the closed column newest first
 * and cut to `DONE_SHOWN`. A card's badge comes from the item's newest run (`runs` is newest first): a
 * running or requested run shows its role, a failed or timed-out one `failed` unless a human has since moved
 * the item on (pending, approved, closed) — the terminal dashboard's precedence (src/tui/view-model/display-status.ts).
 */
export function buildBoardColumns(items: readonly WorkItem[], runs: readonly BoardRun[]): BoardColumn[] {
  const latest = new Map<string, BoardRun>();
  for (const run of runs) {
    if (run.workItemID !== null && !latest.has(run.workItemID)) latest.set(run.workItemID, run);
  }
  return COLUMNS.map((column) => {
    const cards = items
      .filter((item) => column.statuses.includes(item.status))
      .map((item) => ({ item, badge: badgeOf(item, latest.get(item.id)) }));
    if (column.id === 'done') {
      cards.sort((a, b) => Number(b.item.id) - Number(a.item.id));
      return {
        id: column.id,
        title: column.title,
        cards: cards.slice(0, DONE_SHOWN),
        hidden: Math.max(0, cards.length - DONE_SHOWN),
      };
    }
    cards.sort(
      (a, b) =>
        (PRIORITY_WEIGHT[a.item.priority ?? ''] ?? 3) - (PRIORITY_WEIGHT[b.item.priority ?? ''] ?? 3) ||
        Number(a.item.id) - Number(b.item.id),
    );
    return { id: column.id, title: column.title, cards, hidden: 0 };
  });
}

function badgeOf(item: WorkItem, run: BoardRun | undefined): BoardCard['badge'] {
  if (run === undefined || item.status === 'closed') return null;
  if (run.status === 'running' || run.status === 'requested') {
    return run.role === 'reviewer' ? 'reviewing' : 'implementing';
  }
  if (
    (run.status === 'failed' || run.status === 'timed-out') &&
    item.status !== 'pending' &&
    item.status !== 'approved'
  ) {
    return 'failed';
  }
  return null;
}
