import type { Command } from 'commander';
import { describeTrackerQueueEntry } from '../../domain/index.ts';
import { formatTable } from '../support/format-table.ts';
import { loadQueueSummary, type QueueSummary } from '../support/load-queue-summary.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/**
 * `flotilla queue [--json]`: the merge queue (issue #30 §5) — approved items in the order they merge, the
 * head's state and what blocks it, and the entries passed over. Read-only, any provider.
 */
export function registerQueueCommand(program: Command): void {
  program
    .command('queue')
    .description('the merge queue: approved items in merge order, the head and what blocks it')
    .option('--json', 'print the queue as JSON')
    .action(
      runCliAction('queue', (options: { json?: boolean }) =>
        withCliContext(async (context) => {
          const provider = await context.provider.open();
          const summary = await loadQueueSummary(provider, context.config.merge.queue);
          if (options.json) return writeJson(summary);
          process.stdout.write(formatQueue(summary));
        }),
      ),
    );
}

function formatQueue(summary: QueueSummary): string {
  const mode = summary.automatic
    ? 'merge.queue is on: `flotilla run` merges them in this order'
    : 'merge.queue is off: `flotilla merge --queue` merges them in this order';
  if (summary.entries.length === 0)
    return `The merge queue is empty (no approved item with a revision); ${mode}.\n`;
  const held = new Map(summary.held.map((entry) => [entry.workItemID, entry.reason]));
  const rows = summary.entries.map((entry) => [
    String(entry.position),
    `#${entry.workItemID}`,
    entry.title,
    `${entry.revisionID} @ ${entry.headSHA.slice(0, 12)}`,
    entry.pipeline ?? 'unknown',
    entry.workItemID === summary.head?.workItemID
      ? `head: ${summary.head.blockedBy ?? 'merges next'}`
      : (held.get(entry.workItemID) ??
        (entry.trackerQueue === null ? 'waits for the head' : describeTrackerQueueEntry(entry.trackerQueue))),
  ]);
  const head =
    summary.head === null
      ? 'No entry can merge now: each waits for a blocker or has red checks.\n'
      : `Head: #${summary.head.workItemID} — ${summary.head.blockedBy ?? 'ready: it merges next (brought onto the default branch first if that moved)'}.\n`;
  return `${formatTable(['#', 'ITEM', 'TITLE', 'REVISION', 'CHECKS', 'STATE'], rows)}${head}${mode}.\n`;
}
