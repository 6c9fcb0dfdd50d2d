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
}

export type RevisionFileStatus = 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed';

export interface RevisionFile {
  path: string;
  status: RevisionFileStatus;
  /** Unified diff of the file; null for binary files or when too large. */
  patch: string | null;
}
