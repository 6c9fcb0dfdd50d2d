import type { Logger } from '../../logging/logger.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { TrackerRevisions } from '../../storage/index.ts';
import { type RunLocalChecksParams, runLocalChecks } from './git/run-local-checks.ts';

export interface LocalChecksRunnerOptions {
  repoRoot: string;
  revisions: TrackerRevisions;
  /** Null or blank: no checks; callers mark pipelines `success` themselves and never start this. */
  checksCommand: string | null;
  checksTimeoutMs: number;
  logsDir: string;
  logger: Logger;
  /** Called after a result is recorded (the provider tells the engine at once, see Provider.onChange). */
  onRecorded?: (revisionID: string) => void;
  /** Test seam; default `runLocalChecks`. */
  runChecks?: ((params: RunLocalChecksParams) => ReturnType<typeof runLocalChecks>) | undefined;
}

/**
 * Runs the checks of revisions in the background, at most one run per revision at a time. A run targets
 * the head it was started for; when it finishes, its result is recorded only if that is still the head (a
 * newer push makes it stale), and the loop goes on with the newer head if that one is still pending.
 */
export interface LocalChecksRunner {
  /** Starts the checks of the revision's current head unless a run for that revision is in flight. */
  schedule(revisionID: string): void;
  /** Schedules every open revision whose current head is pending, then waits until nothing runs. */
  runPending(): Promise<void>;
  /**
   * Cancels the runs in flight (their commands are killed, their worktrees removed) and resolves once they
   * are gone. Nothing is recorded after this: the heads stay pending and runPending restarts them.
   */
  stop(): Promise<void>;
}

export function createLocalChecksRunner(options: LocalChecksRunnerOptions): LocalChecksRunner {
  const { revisions, logger } = options;
  const runChecks = options.runChecks ?? runLocalChecks;
  const inFlight = new Map<string, Promise<void>>();
  /** Scheduled while a run was in flight: the loop may already have decided to stop, so look again. */
  const requestedAgain = new Set<string>();
  let stopped = false;
  const cancelRuns = new AbortController();

  /** The head SHA to check next, or null when the revision is gone, not open, or its head is settled. */
  function pendingHead(revisionID: string): string | null {
    const revision = revisions.getRevision(revisionID);
    if (revision === null || revisions.getRevisionState(revisionID) !== 'open') return null;
    const pipeline = revisions.getPipeline(revisionID, revision.headSHA);
    return pipeline === null || pipeline.status === 'pending' ? revision.headSHA : null;
  }

  async function checkOnce(revisionID: string, headSHA: string): Promise<void> {
    logger.info('checks started', { revisionID, headSHA });
    let pipeline: { status: 'success' | 'failure'; url: string | null; reason: string | null };
    try {
      const result = await runChecks({
        repoRoot: options.repoRoot,
        headSHA,
        command: options.checksCommand,
        timeoutMs: options.checksTimeoutMs,
        logsDir: options.logsDir,
        signal: cancelRuns.signal,
      });
      pipeline = { status: result.status, url: result.logPath, reason: result.reason };
    } catch (error) {
      if (stopped) {
        logger.info('checks cancelled (shutting down); they run again at the next start', {
          revisionID,
          headSHA,
        });
        return;
      }
      // The checks could not even be set up (missing commit, worktree failure). Leaving the head pending
      // would stall the item forever; a failure with the reason is visible and a re-push retries.
      const message = messageOf(error);
      pipeline = { status: 'failure', url: null, reason: `checks could not run: ${message}` };
    }
    if (stopped) return;
    const current = revisions.getRevision(revisionID);
    if (current?.headSHA !== headSHA) {
      logger.info('checks result ignored: the revision has a newer head', { revisionID, headSHA });
      return;
    }
    revisions.setPipeline(revisionID, headSHA, pipeline);
    logger.info(`checks ${pipeline.status}`, { revisionID, headSHA, logPath: pipeline.url });
    options.onRecorded?.(revisionID);
  }

  async function drive(revisionID: string): Promise<void> {
    let lastChecked: string | null = null;
    for (;;) {
      if (stopped) return;
      const head = pendingHead(revisionID);
      // The same head still pending after its run means the result was dropped: do not loop on it.
      if (head === null || head === lastChecked) return;
      lastChecked = head;
      await checkOnce(revisionID, head);
    }
  }

  function schedule(revisionID: string): void {
    if (stopped) return;
    if (inFlight.has(revisionID)) {
      requestedAgain.add(revisionID);
      return;
    }
    const run = drive(revisionID)
      .catch((error: unknown) => {
        logger.error('checks failed unexpectedly', {
          revisionID,
          error: messageOf(error),
        });
      })
      .finally(() => {
        inFlight.delete(revisionID);
        if (requestedAgain.delete(revisionID)) schedule(revisionID);
      });
    inFlight.set(revisionID, run);
  }

  return {
    schedule,
    async runPending() {
      // After stop() the database may be closed: nothing to restart, only runs to wait for.
      if (stopped) {
        await Promise.all([...inFlight.values()]);
        return;
      }
      for (const revision of revisions.listRevisions()) {
        if (revision.pipeline?.status === 'pending') schedule(revision.id);
      }
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
    async stop() {
      stopped = true;
      cancelRuns.abort(new Error('Flotilla is shutting down'));
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
  };
}
