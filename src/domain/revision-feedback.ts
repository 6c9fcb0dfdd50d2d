/**
 * A human's feedback on a revision that steers Flotilla (issue #26 §2): on GitHub a `REQUEST_CHANGES` or
 * `APPROVE` review, a line comment of such a review, or a review comment / pull request comment mentioning
 * the trigger (`@flotilla`). Which authors' feedback a provider reports is its rule (GitHub: by
 * `author_association`); Flotilla's own writes are never feedback.
 */
export interface RevisionFeedback {
  /** Unique on the revision and stable across reads: `review-<id>`, `line-<id>` or `comment-<id>`. */
  id: string;
  /** `review`: a review (its body; `state` says which); `line-comment`: on a line or file of the diff. */
  kind: 'review' | 'line-comment' | 'comment';
  /** A review's state; null for comments. */
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | null;
  author: string;
  body: string;
  /** Line comments: the file, the head-side line (null: a file-level comment) and GitHub's `diff_hunk`. */
  path: string | null;
  line: number | null;
  diffHunk: string | null;
  /** The commit a review or line comment was made on; null when unknown (pull request comments). */
  commitSHA: string | null;
  /** Where a human reads it; null when the tracker has no page. */
  url: string | null;
  /** ISO timestamp. */
  createdAt: string;
}

/** An approval counts only on the head it approved: a newer head is unreviewed (GitHub's stale reviews). */
export function isApprovalOf(feedback: RevisionFeedback, headSHA: string): boolean {
  return feedback.kind === 'review' && feedback.state === 'APPROVED' && feedback.commitSHA === headSHA;
}

/** Everything but an approval asks for work: a changes request, a mention, a line comment. */
export function asksForRework(feedback: RevisionFeedback): boolean {
  return !(feedback.kind === 'review' && feedback.state === 'APPROVED');
}

/**
 * Whether `body` mentions `trigger` (e.g. `@flotilla`) as a word: `@flotilla,` and `(@flotilla)` do,
 * `@flotilla-bot` and `me@flotilla.dev` do not. Case-insensitive, like GitHub's mentions.
 */
export function mentionsTrigger(body: string, trigger: string): boolean {
  const escaped = trigger.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w@.-])${escaped}(?![\\w-]|\\.\\w)`, 'i').test(body);
}

/** The files a unified patch changes (the `b/` side; deletions by their `a/` path), in patch order. */
export function listPatchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) {
    const file = match[2] ?? match[1];
    if (file !== undefined && !files.includes(file)) files.push(file);
  }
  return files;
}
