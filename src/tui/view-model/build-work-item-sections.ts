import type {
  ImplementorRun,
  PipelineStatus,
  ReviewerRun,
  WorkItem,
  WorkItemPriority,
} from '../../domain/index.ts';
import type { EngineState, QueuedDispatch } from '../../engine/state-store/index.ts';
import {
  ACTION_DISPLAY_STATUSES,
  AGENT_DISPLAY_STATUSES,
  buildDisplayStatus,
  DISPLAY_STATUS_STYLES,
  type DisplayStatus,
} from './display-status.ts';

export interface WorkItemRow {
  item: WorkItem;
  displayStatus: DisplayStatus;
  /** The newest implementor or reviewer run of the item, any status. */
  latestRun: ImplementorRun | ReviewerRun | null;
  queued: QueuedDispatch | null;
  revision: { id: string; pipeline: PipelineStatus | null } | null;
}

export type SectionKey = 'action' | 'agents' | 'backlog';

export interface WorkItemSection {
  key: SectionKey;
  title: string;
  rows: WorkItemRow[];
}

export const SECTION_TITLES: Readonly<Record<SectionKey, string>> = {
  action: 'NEEDS YOU',
  agents: 'AGENTS',
  backlog: 'BACKLOG',
};

const PRIORITY_WEIGHT: Readonly<Record<WorkItemPriority, number>> = { high: 3, medium: 2, low: 1 };

/**
 * The list the dashboard shows, in three sections: what waits for a human, what agents are doing (or are
 * queued to do), and the backlog. Closed items and revisions without a work item are not shown. One pass
 * over the runs and the queue, so 500 items with hundreds of runs stay cheap to rebuild on every change.
 */
export function buildWorkItemSections(state: EngineState): WorkItemSection[] {
  const latestRuns = new Map<string, ImplementorRun | ReviewerRun>();
  for (const run of Object.values(state.agentRuns)) {
    if (run.role === 'planner') continue;
    const previous = latestRuns.get(run.workItemID);
    if (previous === undefined || run.requestedAt >= previous.requestedAt)
      latestRuns.set(run.workItemID, run);
  }
  const queuedByItem = new Map<string, QueuedDispatch>();
  for (const entry of state.dispatchQueue) {
    if (entry.command.type !== 'requestPlannerRun') queuedByItem.set(entry.command.workItemID, entry);
  }

  const sections: Record<SectionKey, WorkItemRow[]> = { action: [], agents: [], backlog: [] };
  for (const item of Object.values(state.workItems)) {
    const latestRun = latestRuns.get(item.id) ?? null;
    const queued = queuedByItem.get(item.id) ?? null;
    const displayStatus = buildDisplayStatus(item, latestRun, queued !== null);
    if (displayStatus === null) continue;
    const revision = item.linkedRevision === null ? undefined : state.revisions[item.linkedRevision];
    sections[sectionOf(displayStatus)].push({
      item,
      displayStatus,
      latestRun,
      queued,
      revision:
        revision === undefined ? null : { id: revision.id, pipeline: revision.pipeline?.status ?? null },
    });
  }
  return (['action', 'agents', 'backlog'] as const).map((key) => ({
    key,
    title: SECTION_TITLES[key],
    rows: sections[key].sort(compareRows),
  }));
}

function sectionOf(status: DisplayStatus): SectionKey {
  if (ACTION_DISPLAY_STATUSES.includes(status)) return 'action';
  if (AGENT_DISPLAY_STATUSES.includes(status)) return 'agents';
  return 'backlog';
}

function compareRows(a: WorkItemRow, b: WorkItemRow): number {
  const weight =
    DISPLAY_STATUS_STYLES[b.displayStatus].weight - DISPLAY_STATUS_STYLES[a.displayStatus].weight;
  if (weight !== 0) return weight;
  const priority = priorityWeight(b.item.priority) - priorityWeight(a.item.priority);
  if (priority !== 0) return priority;
  return compareIDs(a.item.id, b.item.id);
}

function priorityWeight(priority: WorkItemPriority | null): number {
  return priority === null ? 0 : PRIORITY_WEIGHT[priority];
}

/** Numeric ids in numeric order (#2 before #10); anything else as strings. */
export function compareIDs(a: string, b: string): number {
  const numericA = /^\d+$/.test(a);
  const numericB = /^\d+$/.test(b);
  if (numericA && numericB) return Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}
