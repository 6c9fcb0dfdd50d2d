import type { ClusterController } from '../cluster/start-cluster-controller.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { HeldLeadership } from './await-cluster-leadership.ts';

/**
 * A new leader's crash recovery in cluster mode (issue #33): the runs the previous controller left open were
 * just recorded as failed, but their workflows may still run on workers. Each is cancelled (fenced: only
 * while this process leads), so its agent stops before the item is dispatched again. A run that is not on
 * the queue (it never reached it) is nothing to cancel; a failure is logged, never fatal.
 */
export async function cancelOrphanedRuns(
  cluster: ClusterController,
  held: HeldLeadership,
  sessionIDs: readonly string[],
  logger: Logger,
): Promise<void> {
  for (const sessionID of sessionIDs) {
    try {
      await held.leadership.fence(() => cluster.remoteDeps.queue.cancel(sessionID));
      logger.info('cancelled the run a previous controller left on the workers', { sessionID });
    } catch (error) {
      logger.warn('could not cancel a previous controller’s run', { sessionID, error: messageOf(error) });
    }
  }
}
