import type { Proposal, WorkItem } from '../../domain/index.ts';

/**
 * The rejected proposal a new investigation or refinement of `item` revises (issue #29): the item's latest
 * investigation or refinement proposal, when it was rejected with a reason. A later proposal (pending or
 * accepted) means the revision is done; none, or one rejected without a reason, gives null.
 */
export function findModeRevision(
  item: Pick<WorkItem, 'id' | 'mode'>,
  proposals: Readonly<Record<string, Proposal>>,
): Proposal | null {
  if (item.mode === undefined) return null;
  const kind = item.mode === 'investigate' ? 'investigation' : 'refinement';
  const latest = Object.values(proposals)
    .filter((proposal) => proposal.kind === kind && proposal.subjectID === item.id)
    .sort((a, b) => a.createdAt - b.createdAt || Number(a.id) - Number(b.id))
    .at(-1);
  if (latest?.status !== 'rejected' || (latest.reason ?? '').trim() === '') return null;
  return latest;
}

/**
 * The prompt section of a re-run after a human rejected the mode's report with a reason (as
 * `## Plan Revision` is for plans): their reason first, then the rejected report. '' when there is none.
 */
export function buildModeRevisionSection(
  item: Pick<WorkItem, 'id' | 'mode'>,
  proposals: Readonly<Record<string, Proposal>>,
): string {
  const rejected = findModeRevision(item, proposals);
  if (rejected === null) return '';
  const kind = rejected.kind === 'investigation' ? 'investigation' : 'refinement';
  return [
    `## Revision of the rejected ${kind}`,
    '',
    `A human rejected your previous ${kind} of this item (proposal #${rejected.id})` +
      `${rejected.decidedBy === null ? '' : ` (${rejected.decidedBy})`}. Address their reason in this one.`,
    '',
    `### Their reason\n${(rejected.reason ?? '').trim()}`,
    '',
    `### The rejected ${kind}\n\`\`\`json\n${JSON.stringify(rejected.report ?? null, null, 2)}\n\`\`\``,
    '',
  ].join('\n');
}
