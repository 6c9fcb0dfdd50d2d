import type { Command } from 'commander';
import {
  type AgentNoteRecord,
  describeReviewVerdict,
  revisionName,
  type TaskContextEntry,
} from '../../domain/index.ts';
import type { ItemLinks } from '../../providers/provider-descriptor.ts';
import type { ItemHistoryReview } from '../../providers/types.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readWorkItemDetails, type WorkItemDetails } from '../support/read-work-item-details.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

export type { WorkItemDetails };

/**
 * `flotilla work show <id> [--json]`: one work item with its body, comments and linked revision, through the
 * provider contract (its `history` capability: labels, every comment, the revision's review rounds).
 */
export function registerWorkShowCommand(work: Command): void {
  work
    .command('show')
    .description(
      'show a work item: body, labels, blockers, comments, and its revision (open or merged) with checks and every review',
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('--json', 'print one JSON object')
    .action(
      runCliAction('work show', (rawID: string, options: { json?: boolean }) => {
        const id = parseWorkItemID(rawID);
        return withCliContext(async (context) => {
          const provider = await context.provider.open();
          const details = await readWorkItemDetails(provider, id, context.history);
          if (options.json) writeJson(details);
          else process.stdout.write(formatDetails(details, context.provider.links));
        });
      }),
    );
}

function formatDetails(details: WorkItemDetails, links: ItemLinks | undefined): string {
  const done = details.blockedBy
    .filter((id) => !details.waitingFor.some((open) => open.id === id))
    .map((id) => `#${id}`);
  const lines = [
    `#${details.id} ${details.title}`,
    `status: ${details.status}   kind: ${details.kind}   priority: ${details.priority ?? '-'}   complexity: ${details.complexity ?? '-'}`,
    `labels: ${details.labels.join(', ') || '-'}`,
    `waiting for: ${details.waitingFor.map(({ id, status }) => `#${id} (${status})`).join(', ') || '-'}${done.length === 0 ? '' : `   (done: ${done.join(', ')})`}`,
    `created: ${details.createdAt}`,
    ...(links === undefined ? [] : [`page: ${links.itemUrl(details.id)}`]),
    '',
    details.body.trim() === '' ? '(no description)' : details.body.trimEnd(),
  ];
  if (details.comments.length > 0) {
    lines.push('', `Comments (${details.comments.length}):`);
    for (const comment of details.comments) {
      lines.push(`  ${comment.createdAt} ${comment.author}:`, ...indent(comment.body, '    '));
    }
  }
  const revision = details.revision;
  lines.push('');
  if (revision === null) {
    lines.push('Revision: none');
  } else {
    const pipeline = revision.pipeline;
    lines.push(
      `Revision ${revisionName(revision)}${revision.url ? ` (${revision.url})` : ''} (${revision.state}) on ${revision.headRef} at ${revision.headSHA.slice(0, 12)}`,
      `  checks: ${pipeline === null ? 'unknown' : pipeline.status}${pipeline?.reason ? ` — ${pipeline.reason}` : ''}${pipeline?.url ? ` (log: ${pipeline.url})` : ''}`,
    );
    if (revision.reviews.length === 0) lines.push('  reviews: none');
    for (const review of revision.reviews) {
      const round = review.round === null ? 'comment' : `round ${review.round}`;
      lines.push(
        `  review ${review.id} (${round}) by ${review.author}: ${describeVerdict(review)}`,
        ...indent(review.body, '    '),
      );
      for (const comment of review.comments) {
        lines.push(`    ${comment.path}${comment.line === null ? '' : `:${comment.line}`}: ${comment.body}`);
      }
    }
  }
  if (details.taskContext !== undefined) lines.push('', ...formatTaskContext(details.taskContext));
  if (details.decisions !== undefined) lines.push('', ...formatNotes('Decisions', details.decisions));
  if (details.questions !== undefined && details.questions.length > 0)
    lines.push('', ...formatNotes('Questions agents logged', details.questions));
  return `${lines.join('\n')}\n`;
}

/** Decisions (with why) or logged questions, oldest first, each with the run's role and runtime. */
function formatNotes(title: string, notes: readonly AgentNoteRecord[]): string[] {
  if (notes.length === 0) return [`${title}: none`];
  const lines = [`${title} (${notes.length}, oldest first):`];
  for (const note of notes) {
    const at = new Date(note.createdAt).toISOString();
    lines.push(`  ${at} [${note.role} · ${note.runtime ?? '?'}] ${note.text}`);
    if (note.why !== null) lines.push(...indent(`why: ${note.why}`, '    '));
  }
  return lines;
}

/** Every entry, whole: the prompt may shorten or leave out old ones, this never does. */
function formatTaskContext(entries: readonly TaskContextEntry[]): string[] {
  if (entries.length === 0) return ['Task context: none'];
  const lines = [`Task context (${entries.length}, oldest first):`];
  for (const entry of entries) {
    const source = entry.runtime === null ? entry.role : `${entry.role} · ${entry.runtime}`;
    lines.push(
      `  ${new Date(entry.createdAt).toISOString()} ${entry.type} [${source}] run ${entry.sessionID}`,
      ...indent(entry.summary || '(no summary)', '    '),
    );
  }
  return lines;
}

/** What the review said — kept when a later review replaced it, which is said after it. */
function describeVerdict(review: ItemHistoryReview): string {
  const { said, replaced } = describeReviewVerdict({
    state: review.state,
    ...(review.verdict !== null && { verdict: review.verdict }),
  });
  return replaced && said !== 'dismissed' ? `${said} (replaced by a later review)` : said;
}

function indent(text: string, prefix: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `${prefix}${line}`);
}
