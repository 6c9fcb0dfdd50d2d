/**
 * A controller process for the leadership tests: takes part in the election on the PostgreSQL at argv[2]
 * and prints `elected <token>` when it leads. The test kills it (`kill -9`) to see another take over.
 */
import pg from 'pg';
import { createLeaderElection } from '../../src/cluster/create-leader-election.ts';
import { createLeaderLease } from '../../src/cluster/create-leader-lease.ts';
import { silentLogger } from '../../src/logging/logger.ts';

const [url, ttl, interval] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 2 });
createLeaderElection({
  lease: createLeaderLease({ pool, name: 'controller', holder: `child-${process.pid}`, ttlMs: Number(ttl) }),
  intervalMs: Number(interval),
  logger: silentLogger,
  onElected: (token) => process.stdout.write(`elected ${token}\n`),
  onDeposed: () => process.exit(3),
});
