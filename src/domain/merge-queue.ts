/**
 * The merge queue (issue #30 §5): approved revisions merge one at a time, each first brought onto the
 * current default branch, and only with green checks on that result.
 */

/** One file that did not merge when a revision was rebased onto the default branch. */
export interface MergeConflictFile {
  path: string;
  /**
   * The conflicting hunks as git wrote them (`<<<<<<<` … `>>>>>>>`, both sides); empty when git could not
   * write markers (a file deleted on one side, a binary file).
   */
  hunks: string[];
}

/** Why an approved revision went back to an implementor: it no longer applies to the default branch. */
export interface MergeConflict {
  revisionID: string;
  /** The revision head that conflicted. */
  headSHA: string;
  /** The default branch head it was rebased onto. */
  baseSHA: string;
  files: MergeConflictFile[];
}

/**
 * What one step of the queue did with its head (`advanceMergeQueue`): `up-to-date` — it already sits on the
 * default branch, its checks are still running; `rebased` — a new head on the default branch, its checks
 * start over (`changedApproved`: the rebase changed what was approved beyond a shift of lines, so it is
 * reviewed again); `conflict` — nothing was written, it goes back to an implementor; `merged`; `enqueued` —
 * handed to the tracker's own merge queue (GitHub's).
 */
export type MergeQueueOutcome = 'up-to-date' | 'rebased' | 'conflict' | 'merged' | 'enqueued';

/** What each `MergeQueueEntryState` means for the entry, in words (docs/github-merge-queue.md). */
const TRACKER_QUEUE_STATES: Record<string, string> = {
  QUEUED: 'queued, its merge group not started yet',
  AWAITING_CHECKS: "waiting for its merge group's checks to pass",
  MERGEABLE: 'its merge group passed: GitHub merges it',
  UNMERGEABLE: 'GitHub cannot merge it (its merge group failed its checks or conflicts): it leaves the queue',
  LOCKED: 'locked by GitHub while the queue works on it',
};

/**
 * A revision's place in GitHub's merge queue in words, for `flotilla queue` and both dashboards: its
 * position (and how many entries are ahead), GitHub's state for it and what that state means, and GitHub's
 * estimate when it gives one. E.g. `in GitHub's merge queue at position 2 (1 ahead): QUEUED — queued, its
 * merge group not started yet`.
 */
export function describeTrackerQueueEntry(entry: {
  position: number;
  state: string;
  estimatedTimeToMerge: number | null;
}): string {
  const ahead = entry.position - 1;
  const place = ahead > 0 ? `at position ${entry.position} (${ahead} ahead)` : 'at position 1 (first)';
  const meaning = TRACKER_QUEUE_STATES[entry.state];
  const estimate =
    entry.estimatedTimeToMerge === null
      ? ''
      : `; GitHub estimates ${formatSeconds(entry.estimatedTimeToMerge)} to merge`;
  return `in GitHub's merge queue ${place}: ${entry.state}${meaning === undefined ? '' : ` — ${meaning}`}${estimate}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Lines of one hunk shown before it is cut, so a huge conflict cannot flood a prompt or a comment. */
const MAX_HUNK_LINES = 60;
const MAX_HUNKS_PER_FILE = 5;

/**
 * The conflict as Markdown, for the item's comment and the implementor's prompt: which files, and each
 * conflicting hunk in a fenced block (bounded: the first hunks of a file, the first lines of a hunk).
 */
export function formatMergeConflict(conflict: MergeConflict): string {
  const lines = [
    `Revision #${conflict.revisionID} (${conflict.headSHA.slice(0, 12)}) no longer applies to the default branch (${conflict.baseSHA.slice(0, 12)}). Conflicting files:`,
    '',
  ];
  for (const file of conflict.files) {
    lines.push(`- \`${file.path}\``);
  }
  for (const file of conflict.files) {
    if (file.hunks.length === 0) continue;
    lines.push('', `### \`${file.path}\``);
    for (const hunk of file.hunks.slice(0, MAX_HUNKS_PER_FILE)) {
      const hunkLines = hunk.replace(/\n$/, '').split('\n');
      const shown = hunkLines.slice(0, MAX_HUNK_LINES);
      const fence = '`'.repeat(Math.max(3, ...[...hunk.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      lines.push('', fence, ...shown, ...(hunkLines.length > shown.length ? ['[… hunk cut]'] : []), fence);
    }
    if (file.hunks.length > MAX_HUNKS_PER_FILE) {
      lines.push('', `[${file.hunks.length - MAX_HUNKS_PER_FILE} more hunks in this file]`);
    }
  }
  return lines.join('\n');
}
