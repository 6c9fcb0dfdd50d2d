import { resolveClusterDatabaseUrl } from '../cluster/resolve-cluster-database-url.ts';
import {
  type ControllerLeadership,
  startControllerLeadership,
} from '../cluster/start-controller-leadership.ts';
import type { ClusterSettings } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';

export interface ClusterLeadershipOptions {
  settings: ClusterSettings;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Another controller leads: this one waits as a standby (said once, with the leader's name and token). */
  onStandby?: (leader: { holder: string; token: number }) => void;
}

/** The lease this control plane leads with: its token, and the fence its writes go through. */
export interface HeldLeadership {
  token: number;
  leadership: ControllerLeadership;
}

/**
 * Cluster mode (issue #33): waits until this process holds the controller lease — at once when no other
 * controller leads, else as a standby until the leader's lease lapses (killed, paused, partitioned) or it
 * gives it up. Until then nothing of the control plane has started.
 */
export async function awaitClusterLeadership(options: ClusterLeadershipOptions): Promise<HeldLeadership> {
  const { settings, logger } = options;
  const resolved = resolveClusterDatabaseUrl(settings.postgres, options.env);
  if (!resolved.ok) throw new Error(`flotilla.config.json: cluster.postgres: ${resolved.problem}`);
  const leadership = startControllerLeadership({
    databaseUrl: resolved.url,
    leaseTimeoutSeconds: settings.leaseTimeout,
    logger,
  });
  try {
    const leader = await leadership.currentHolder();
    if (leader !== null && leader.holder !== leadership.holder) {
      logger.info('standby: another controller leads', leader);
      options.onStandby?.(leader);
    }
  } catch (error) {
    await leadership.stop();
    throw new Error(
      `cluster: could not reach PostgreSQL at $${resolved.variable}: ${error instanceof Error ? error.message : error}`,
    );
  }
  const token = await leadership.elected;
  logger.info('this controller leads', { token, holder: leadership.holder });
  return { token, leadership };
}
