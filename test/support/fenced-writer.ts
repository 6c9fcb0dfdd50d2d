/**
 * A controller process for the fencing test (src/cluster/start-controller-leadership.test.ts): leads on the
 * PostgreSQL at argv[2] (lease timeout argv[3] seconds), prints `elected <token>`, then writes a row to
 * `fenced_writes` through its fence over and over — on a connection of its own, as an external write would.
 * Each refused write prints `refused <error name>` (the test pauses it with SIGSTOP while another takes over).
 * argv[4], milliseconds (default 0): how long each write holds its fence after the row, as a slow external write
 * would — so a pause lands inside the fence's transaction, which the server then ends.
 */
import pg from 'pg';
import { startControllerLeadership } from '../../src/cluster/start-controller-leadership.ts';
import { silentLogger } from '../../src/logging/logger.ts';

const [url, leaseTimeout, holdMs] = process.argv.slice(2);
const writer = new pg.Pool({ connectionString: url, max: 1 });
const leadership = startControllerLeadership({
  databaseUrl: url ?? '',
  leaseTimeoutSeconds: Number(leaseTimeout),
  logger: silentLogger,
});
leadership.onDeposed((deposedAt) => process.stdout.write(`deposed ${deposedAt}\n`));
const token = await leadership.elected;
process.stdout.write(`elected ${token}\n`);
for (;;) {
  try {
    await leadership.fence(async () => {
      await writer.query('INSERT INTO fenced_writes (who, token) VALUES ($1, $2)', ['paused-leader', token]);
      await new Promise((resolve) => setTimeout(resolve, Number(holdMs ?? 0)));
    });
  } catch (error) {
    process.stdout.write(`refused ${error instanceof Error ? error.name : String(error)}\n`);
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
