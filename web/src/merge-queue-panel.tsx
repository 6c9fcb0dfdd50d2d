import { memo } from 'preact/compat';
import type { QueueSummary } from './api-client.ts';
import { buildQueueRows } from './build-queue-rows.ts';

interface MergeQueuePanelProps {
  /** Null until loaded, or when this server has no queue route (the panel is not drawn then). */
  queue: QueueSummary | null;
  onOpen(id: string): void;
}

/**
 * The merge queue (`flotilla queue`, issue #30 §5) in a strip above the board: approved items in merge
 * order, the head and what blocks it, held entries with why; a click opens the item.
 */
export const MergeQueuePanel = memo(function MergeQueuePanelView({ queue, onOpen }: MergeQueuePanelProps) {
  if (queue === null) return null;
  const rows = buildQueueRows(queue);
  return (
    <section class="merge-queue" data-testid="merge-queue" aria-label="merge queue">
      <h2>
        Merge queue{' '}
        <span class="dim">
          {queue.automatic
            ? 'merge.queue on: flotilla run merges in this order'
            : 'merge.queue off: flotilla merge --queue merges in this order'}
        </span>
      </h2>
      {rows.length === 0 ? (
        <p class="dim">empty: no approved item with a revision</p>
      ) : (
        <ol>
          {rows.map((row) => (
            <li key={row.workItemID} class={`queue-${row.kind}`} data-queue-item={row.workItemID}>
              <span class="dim">{row.position}.</span>
              <button type="button" onClick={() => onOpen(row.workItemID)} title={`open #${row.workItemID}`}>
                <span class="id">#{row.workItemID}</span> {row.title}
              </button>{' '}
              <span class="note">{row.note}</span>
            </li>
          ))}
        </ol>
      )}
      {rows.length > 0 && queue.head === null && (
        <p class="queue-stuck">No entry can merge now: each waits for a blocker or has red checks.</p>
      )}
    </section>
  );
});
