export type PipelineStatus = 'pending' | 'success' | 'failure';

export interface Pipeline {
  status: PipelineStatus;
  /**
   * Where to read the checks' output (URL or local log path), for passed and failed checks alike; null while
   * pending or when nothing ran (no checks command).
   */
  url: string | null;
  /** Name or summary of the first failing check; null unless it failed. */
  reason: string | null;
}

/** A proposed change for a work item (a pull request, or a local branch for the local provider). */
export interface Revision {
  id: string;
  title: string;
  url: string | null;
  headSHA: string;
  headRef: string;
  author: string;
  body: string;
  isDraft: boolean;
  workItemID: string | null;
  /** Null when the checks status is unknown (e.g. the CI fetch failed); never means "removed". */
  pipeline: Pipeline | null;
  /** Id of the engine's own review on this revision, if it posted one. */
  reviewID: string | null;
  /**
   * Its entry in the tracker's own merge queue (GitHub's), present only while it sits there (issue #30 §5);
   * absent otherwise, and from readers that do not see the queue (a single pull request read over REST).
   */
  trackerQueue?: TrackerQueueEntry;
}

/**
 * A revision's place in GitHub's merge queue, as GraphQL's `MergeQueueEntry` gives it
 * (docs/github-merge-queue.md, "What the queue shows").
 */
export interface TrackerQueueEntry {
  /** 1-based: the entries ahead of it, plus one. */
  position: number;
  /** `MergeQueueEntryState`: QUEUED, AWAITING_CHECKS, MERGEABLE, UNMERGEABLE or LOCKED (kept as GitHub says it). */
  state: string;
  /** When it was added to the queue (ISO 8601). */
  enqueuedAt: string;
  /** GitHub's estimate, in seconds, until it merges; null when GitHub gives none. */
  estimatedTimeToMerge: number | null;
}

export type RevisionFileStatus = 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed';

export interface RevisionFile {
  path: string;
  status: RevisionFileStatus;
  /** Unified diff of the file; null for binary files or when too large. */
  patch: string | null;
}
