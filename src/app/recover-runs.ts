import type { ClusterController } from '../cluster/start-cluster-controller.ts';
import type { AdoptedRun } from '../engine/adopt-runs.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { EngineStatePersistence, StoredAgentRun } from '../storage/index.ts';
import type { HeldLeadership } from './await-cluster-leadership.ts';
import { cancelOrphanedRuns } from './cancel-orphaned-runs.ts';

export interface RecoveredRuns {
  /** Runs the previous process left open that are over: recorded as failed (interrupted). */
  interrupted: StoredAgentRun[];
  /** Cluster mode: runs that go on on the workers, which the new engine waits on (EngineConfig.adoptedRuns). */
  adopted: AdoptedRun[];
  /** Their session ids (kept active by the persistence's recovery). */
  keep: ReadonlySet<string>;
}

/**
 * Crash recovery of the runs a previous process left `requested`/`running`. On one machine they died with
 * it: recorded as failed. In cluster mode (issue #33) a run whose durable workflow is still queued, running
 * or finished with its reply is adopted — the new leader waits on its workflow, so its item gets no second
 * agent and its spend is counted once, when its reply lands; the rest are recorded as failed and their
 * workflows cancelled (cancel-orphaned-runs.ts). If the queue cannot be read, nothing is adopted.
 */
export async function recoverRuns(
  persistence: EngineStatePersistence,
  cluster: { controller: ClusterController; held: HeldLeadership } | null,
  logger: Logger,
): Promise<RecoveredRuns> {
  if (cluster === null)
    return { interrupted: persistence.recoverInterruptedRuns(), adopted: [], keep: new Set() };
  const active = persistence.listActiveRuns();
  let messages = new Map<string, { params: AdoptedRun['params'] }>();
  try {
    messages = await cluster.controller.adoptable(active.map((run) => run.sessionID));
  } catch (error) {
    logger.warn('could not read the run queue: no run is adopted', { error: messageOf(error) });
  }
  const adopted = active.flatMap(({ failureReason: _reason, ...run }): AdoptedRun[] => {
    const message = messages.get(run.sessionID);
    return message === undefined ? [] : [{ run, params: message.params }];
  });
  const keep = new Set(adopted.map(({ run }) => run.sessionID));
  const interrupted = persistence.recoverInterruptedRuns({ keep });
  await cancelOrphanedRuns(
    cluster.controller,
    cluster.held,
    interrupted.map((run) => run.sessionID),
    logger,
  );
  if (adopted.length > 0)
    logger.info('adopted the runs a previous controller left on the workers', { sessionIDs: [...keep] });
  return { interrupted, adopted, keep };
}
