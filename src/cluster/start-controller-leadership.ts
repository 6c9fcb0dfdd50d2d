import { hostname } from 'node:os';
import pg from 'pg';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import { createLeaderElection } from './create-leader-election.ts';
import { createLeaderLease, LeaseLostError } from './create-leader-lease.ts';

/** The lease every controller of a cluster contends for. */
export const CONTROLLER_LEASE = 'controller';

export interface ControllerLeadershipOptions {
  databaseUrl: string;
  /** Seconds the lease lasts unrenewed (config `cluster.leaseTimeout`): the longest a dead leader is mourned. */
  leaseTimeoutSeconds: number;
  logger: Logger;
  /** This process as the lease names it; default host, pid and a random part. */
  holder?: string;
}

/** Runs an external write only while this process holds the lease with its token; LeaseLostError else. */
export type Fence = <T>(write: () => Promise<T>) => Promise<T>;

export interface ControllerLeadership {
  holder: string;
  /** Resolves with the fencing token once this process leads (it waits as a standby until then). */
  elected: Promise<number>;
  /** Who holds the lease now, as the database says (for the standby's line); null when nobody does. */
  currentHolder(): Promise<{ holder: string; token: number } | null>;
  /** The writes of the leader: each checks the token in the database and holds the lease row while it runs. */
  fence: Fence;
  /**
   * The token while this process leads by its own reckoning (no round trip: elected, and renewed less than a
   * lease timeout ago), else null. The state's fence checks it before asking the database.
   */
  leading(): number | null;
  /** Stops leading at once (the onDeposed listeners run): a write found the lease lost. */
  depose(reason: string): void;
  /** Called once, when this process led and lost the lease (it must stop writing at once). */
  onDeposed(listener: (token: number) => void): void;
  /** Gives the lease up (a standby takes over at its next try) and closes the connections. */
  stop(): Promise<void>;
}

/**
 * The controller's leadership (issue #33): `flotilla run` in cluster mode starts its engine only once this
 * process holds the `controller` lease, and fences every write with the lease's token. The lease is renewed
 * every fifth of its timeout; a renewal that fails, or none succeeding for a whole timeout by this machine's
 * own clock (a hung connection), deposes this process before any further write.
 */
export function startControllerLeadership(options: ControllerLeadershipOptions): ControllerLeadership {
  const { logger } = options;
  const ttlMs = options.leaseTimeoutSeconds * 1000;
  const holder = options.holder ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  // A hung query must not keep a deposed leader believing it leads: every query gives up within the TTL.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 6, query_timeout: ttlMs });
  pool.on('error', (error) => logger.warn('controller lease connection error', { error: error.message }));
  const lease = createLeaderLease({ pool, name: CONTROLLER_LEASE, holder, ttlMs });
  const deposedListeners: ((token: number) => void)[] = [];
  let lastRenewed = 0;
  let resolveElected: (token: number) => void = () => {};
  const elected = new Promise<number>((resolve) => {
    resolveElected = resolve;
  });
  const intervalMs = Math.max(100, Math.floor(ttlMs / 5));
  const election = createLeaderElection({
    lease,
    intervalMs,
    logger,
    onRenewed: () => {
      lastRenewed = performance.now();
    },
    onElected: (token) => {
      lastRenewed = performance.now();
      resolveElected(token);
    },
    onDeposed: (token) => {
      // A deposed controller never contends again: its process stops, a fresh one may stand by.
      void election.stop();
      for (const listener of deposedListeners.splice(0)) listener(token);
    },
  });
  /** Leading by this machine's own reckoning: a token, and a renewal less than a TTL ago. */
  const leadingLocally = () => {
    const token = election.token();
    return token !== null && performance.now() - lastRenewed < ttlMs ? token : null;
  };
  const watchdog = setInterval(() => {
    if (election.token() !== null && leadingLocally() === null)
      election.depose('no renewal for a whole lease timeout (the database is unreachable or hung)');
  }, intervalMs);
  watchdog.unref();
  return {
    holder,
    elected,
    currentHolder: () => lease.current(),
    async fence(write) {
      const token = leadingLocally();
      // Refused here without a round trip when this process already knows it does not lead.
      if (token === null) throw new LeaseLostError(CONTROLLER_LEASE, election.token() ?? 0);
      return lease.withFence(token, () => write());
    },
    leading: leadingLocally,
    depose: (reason) => election.depose(reason),
    onDeposed(listener) {
      deposedListeners.push(listener);
    },
    async stop() {
      clearInterval(watchdog);
      await election
        .stop()
        .catch((error: unknown) =>
          logger.warn('could not release the controller lease', { error: messageOf(error) }),
        );
      await pool.end().catch(() => undefined);
    },
  };
}
