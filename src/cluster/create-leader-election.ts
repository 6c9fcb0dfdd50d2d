import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { LeaderLease } from './create-leader-lease.ts';

export interface LeaderElectionOptions {
  lease: LeaderLease;
  /** How often a follower tries to take the lease, and a leader renews it (well under the lease's TTL). */
  intervalMs: number;
  logger: Logger;
  /** This process became the leader with `token`: start the engine, fencing its writes with it. */
  onElected(token: number): void;
  /** The lease was renewed (or taken again) by this leader. */
  onRenewed?(token: number): void;
  /** The lease was lost (not renewed in time, or taken): stop writing at once. */
  onDeposed(token: number): void;
}

export interface LeaderElection {
  /** The token while this process leads, else null. */
  token(): number | null;
  /** Stops leading at once (onDeposed), e.g. when renewals stalled; the next tries contend again. */
  depose(reason: string): void;
  /** Stops trying; a leader gives the lease up so a follower takes over at its next try. */
  stop(): Promise<void>;
}

/**
 * Exactly one controller at a time (issue #33): every process tries to take the lease; the one that has it
 * renews it each interval; the others keep trying. A renewal that fails — the database unreachable, or the
 * lease lapsed and taken — deposes the leader before anything else happens, and the fence refuses any write it
 * still attempts. Failing closed: an error while leading counts as losing the lease.
 */
export function createLeaderElection(options: LeaderElectionOptions): LeaderElection {
  const { lease, logger } = options;
  let token: number | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let round: Promise<void> = Promise.resolve();

  const depose = (reason: string) => {
    if (token === null) return;
    const lost = token;
    token = null;
    logger.warn('Controller lease lost', { token: lost, reason });
    options.onDeposed(lost);
  };

  const tick = async () => {
    try {
      if (token === null) {
        const acquired = await lease.tryAcquire();
        if (acquired !== null && !stopped) {
          token = acquired;
          logger.info('Controller lease taken', { token });
          options.onElected(acquired);
        }
      } else {
        const held = token;
        if (!(await lease.renew(held))) depose('not renewed: it lapsed or another process took it');
        else if (token === held) options.onRenewed?.(held);
      }
    } catch (error) {
      if (token !== null) depose(messageOf(error));
      else logger.warn('Controller lease: cannot reach the database', { error: messageOf(error) });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = tick().finally(schedule);
    }, options.intervalMs);
  };
  round = tick().finally(schedule);

  return {
    token: () => token,
    depose,
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await round;
      if (token !== null) {
        const held = token;
        token = null;
        await lease.release(held).catch(() => {});
      }
    },
  };
}
