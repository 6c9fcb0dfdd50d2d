import { type ChecksOutcome, describeChecksOutcome } from '../../domain/index.ts';
import type { RevisionState, SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import { findWorkItemRevision } from './find-work-item-revision.ts';
import { requireWorkItem } from './require-work-item.ts';

/** `flotilla checks --json` (documented in src/cli/README.md). */
export interface ChecksSummary {
  workItemID: string;
  revisionID: string;
  revisionState: RevisionState;
  headSHA: string;
  /** `checks.command` from the config; null when no checks are configured (every head passes). */
  command: string | null;
  /** The one vocabulary (src/domain/checks-outcome.ts): passed, failed or pending. */
  status: ChecksOutcome;
  /** The first failing check, for a failure. */
  reason: string | null;
  /** The checks log, when the provider recorded one. */
  logPath: string | null;
}

/**
 * The checks of an item's revision head (the open revision, else the one merged or closed) in the local
 * tracker: `flotilla checks --json` and the API's `GET /api/work-items/:id/checks`. An item without any
 * revision is a CliError with exit 1 (nothing was checked).
 */
export function buildChecksSummary(
  tracker: SqliteTracker,
  checksCommand: string | null,
  id: string,
): ChecksSummary & { headRef: string } {
  const item = requireWorkItem(tracker, id, 'checks');
  const revision = findWorkItemRevision(tracker, item);
  if (revision === null) {
    throw new CliError(`#${id} has no revision yet, so nothing was checked (it is ${item.status})`, {
      exitCode: 1,
    });
  }
  const pipeline = revision.pipeline ?? { status: 'pending' as const, url: null, reason: null };
  return {
    workItemID: id,
    revisionID: revision.id,
    revisionState: revision.state,
    headSHA: revision.headSHA,
    headRef: revision.headRef,
    command: checksCommand,
    status: describeChecksOutcome(pipeline.status),
    reason: pipeline.reason,
    logPath: pipeline.url,
  };
}
