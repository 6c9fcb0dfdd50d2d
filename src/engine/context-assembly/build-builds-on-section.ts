import type { StackBase } from '../state-store/selectors/index.ts';

/**
 * The implementor's `## Builds On` section (issue #30): what its worktree starts from besides the default
 * branch — the approved, not yet merged revisions of its blockers (stacked), the merged ones, and for a
 * rework its own previous revision, rebased. '' when there is nothing to say.
 */
export function buildBuildsOnSection(base: StackBase, rework: { revisionID: string } | null): string {
  const lines: string[] = [];
  for (const blocker of base.stacked) {
    lines.push(
      `- #${blocker.workItemID} "${blocker.title}": approved, not merged yet — revision #${blocker.revisionID} (branch \`${blocker.headRef}\` at ${blocker.headSHA.slice(0, 12)}). Your worktree starts from it.`,
    );
  }
  for (const blocker of base.closed) {
    lines.push(
      `- #${blocker.workItemID} "${blocker.title}": closed — its merged work is on the default branch.`,
    );
  }
  const parts: string[] = [];
  if (lines.length > 0) {
    parts.push('## Builds On', 'This item depends on:', ...lines);
    if (base.stacked.length > 0)
      parts.push(
        'Use that work as it is; do not redo it. Your change is reviewed and merged on top of it, and your patch holds only your own work.',
      );
  }
  if (rework !== null) {
    if (parts.length === 0) parts.push('## Builds On');
    parts.push(
      `Your worktree starts with this item's previous revision (#${rework.revisionID}) rebased onto ${base.stacked.length > 0 ? 'that' : 'the current default branch'}, unless a workspace note says the rebase failed: continue from it.`,
    );
  }
  return parts.join('\n');
}
