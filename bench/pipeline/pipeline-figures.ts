import type { EngineEvent } from '../../src/domain/events.ts';

/**
 * What the pipeline benchmark counts beyond per-item phases: why dispatches waited (slots, the machine's
 * resources, overlapping files) with the last resource reason users were shown, and the merge queue
 * (`MERGE_QUEUE=1`): approved → merged per item, the queue's steps by outcome, and how long it got.
 */
export interface PipelineFigures {
  /** `dispatchQueued` events by reason (a run asked about again counts again). */
  queuedByReason: Record<string, number>;
  /** The last `resources` detail: what the progress line and dashboard header said. */
  lastResourceDetail: string | null;
  /** Work item id → epoch ms it was approved / closed (merged through the queue). */
  approvedAt: Map<string, number>;
  mergedAt: Map<string, number>;
  /** `mergeQueueStepped` by outcome. */
  steps: Record<string, number>;
  /** Most items approved and not merged at once: the queue's longest. */
  longestQueue: number;
}

export function createPipelineFigures(): { figures: PipelineFigures; observe(event: EngineEvent): void } {
  const figures: PipelineFigures = {
    queuedByReason: {},
    lastResourceDetail: null,
    approvedAt: new Map(),
    mergedAt: new Map(),
    steps: {},
    longestQueue: 0,
  };
  const waiting = new Set<string>();
  return {
    figures,
    observe(event) {
      const now = Date.now();
      switch (event.type) {
        case 'dispatchQueued':
          figures.queuedByReason[event.reason] = (figures.queuedByReason[event.reason] ?? 0) + 1;
          if (event.reason === 'resources' && event.detail !== undefined)
            figures.lastResourceDetail = event.detail;
          return;
        case 'mergeQueueStepped':
          figures.steps[event.outcome] = (figures.steps[event.outcome] ?? 0) + 1;
          return;
        case 'workItemChanged':
          if (event.newStatus === 'approved') {
            if (!figures.approvedAt.has(event.workItemID)) figures.approvedAt.set(event.workItemID, now);
            waiting.add(event.workItemID);
          } else if (waiting.delete(event.workItemID) && event.newStatus === 'closed') {
            figures.mergedAt.set(event.workItemID, now);
          }
          figures.longestQueue = Math.max(figures.longestQueue, waiting.size);
          return;
        default:
          return;
      }
    },
  };
}

/** Approved → merged of every merged item, in ms. */
export function mergeWaits(figures: PipelineFigures): number[] {
  return [...figures.mergedAt].flatMap(([id, merged]) => {
    const approved = figures.approvedAt.get(id);
    return approved === undefined ? [] : [merged - approved];
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const seconds = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(2)}s`);
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** One concurrency level's figures, for the comparison table. */
export interface ScaleRow {
  agents: number;
  approved: number;
  merged: number | null;
  wallMs: number;
  itemsPerMin: number;
  queueWaitMedianMs: number;
  queueWaitP90Ms: number;
  mergeWaitMedianMs: number;
  mergeWaitP90Ms: number;
  longestMergeQueue: number;
  peakRunning: number;
  controlPlaneRss: number;
  agentsRss: number;
  controlPlaneCpuPercent: number;
  failedRuns: number;
  resourceWaits: number;
}

export function printScaleTable(rows: ScaleRow[], items: number, modelLatencyMs: number): void {
  console.log(`\nscale: ${items} items per level, ${modelLatencyMs} ms model latency per turn`);
  console.log(
    '| agents | approved | merged | wall | items/min | queue wait median / p90 | approved → merged median / p90 | longest merge queue | peak running | resource waits | control plane RSS | agents RSS | control-plane CPU | failed runs |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.agents} | ${row.approved}/${items} | ${row.merged ?? '—'} | ${seconds(row.wallMs)} | ${row.itemsPerMin.toFixed(2)} | ${seconds(row.queueWaitMedianMs)} / ${seconds(row.queueWaitP90Ms)} | ${seconds(row.mergeWaitMedianMs)} / ${seconds(row.mergeWaitP90Ms)} | ${row.longestMergeQueue} | ${row.peakRunning} | ${row.resourceWaits} | ${mib(row.controlPlaneRss)} | ${mib(row.agentsRss)} | ${row.controlPlaneCpuPercent.toFixed(0)}% | ${row.failedRuns} |`,
    );
  }
}
