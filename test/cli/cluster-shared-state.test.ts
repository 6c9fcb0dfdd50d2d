/**
 * The engine's state on PostgreSQL in cluster mode (issue #33, src/storage/README.md "Two backends"):
 * controller A runs the one-item loop in the repository, controller B waits as a standby in another clone
 * (another machine, its own `.flotilla/`), and a worker in a third clone plays the runs. A records the runs
 * and their spend, is killed with SIGKILL, B takes the lease — and `flotilla runs` and `flotilla budget` on
 * B's machine show A's history and spend, which neither clone's SQLite holds.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  oneItemLoopRoutes,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
} from '../support/cluster-processes.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { readDatabase, startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';
import { startPostgres, type TestPostgres } from '../support/start-postgres.ts';

const run = promisify(execFile);
const fixtures = createRunFixtures();
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterEach(() => fixtures.cleanup());
afterAll(() => postgres?.stop());

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;

interface RunRow {
  session_id: string;
  role: string;
  status: string;
  cost_usd: number | null;
}

describe('flotilla run in cluster mode: the run history and ledger in PostgreSQL', () => {
  it(
    "a standby in another clone takes over after kill -9 and its CLI shows the killed leader's runs and spend",
    async () => {
      const server = await fixtures.serve({
        name: 'shared-state',
        routes: oneItemLoopRoutes(Promise.resolve()),
      });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        scheduler: { retryBaseDelay: 1, retryMaxDelay: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3, leaseTimeout: 2 },
      });
      const [machineB, workerClone] = await sharedRemoteWithClones(fixtures, repo.root, [
        'controller-b',
        'worker',
      ]);
      if (machineB === undefined || workerClone === undefined) throw new Error('no clones');
      const env = {
        ...repo.gitEnv,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
        CLAUDE_CODE_MAX_RETRIES: '0',
        FLOTILLA_DATABASE_URL: postgres.url,
      };
      const worker = startWorker(fixtures, workerClone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);
      const leader = startFlotillaRun(fixtures, repo.root, env);
      await leader.waitForOutput("as the cluster's controller (lease token 1)", STEP_TIMEOUT);
      const standby = startFlotillaRun(fixtures, machineB, env);
      await standby.waitForOutput(/standby — controller \S+ leads \(lease token 1\)/, STEP_TIMEOUT);
      const context = () =>
        [leader.output(), flotillaLogTail(repo.root, 60), standby.output(), worker.output()].join('\n---\n');
      const recorded = () =>
        readClusterState(postgres.url, (sql) =>
          sql.all<RunRow>(
            'SELECT session_id, role, status, cost_usd FROM agent_runs ORDER BY requested_at, rowid',
          ),
        );
      // A keeps running (no --until-idle): the loop ends with the item approved and the reviewer's run recorded.
      await waitForCondition(
        () => recorded().some((row) => row.role === 'reviewer' && row.status === 'completed'),
        STEP_TIMEOUT,
        "the leader to record the reviewer's completed run",
        context,
      );
      const runsOfA = recorded();
      expect(runsOfA.map(({ role, status }) => ({ role, status }))).toEqual([
        { role: 'planner', status: 'completed' },
        { role: 'implementor', status: 'completed' },
        { role: 'reviewer', status: 'completed' },
      ]);
      await leader.killGroup();
      await standby.waitForOutput("as the cluster's controller (lease token 2)", STEP_TIMEOUT);

      // B's machine: the same history and spend, read through its own clone's CLI.
      const flotillaOnB = async (args: string[]) =>
        JSON.parse(
          (
            await run(process.execPath, [FLOTILLA_BIN, ...args], {
              cwd: machineB,
              env: { ...process.env, ...env },
            })
          ).stdout,
        );
      const runsOnB = (await flotillaOnB(['runs', '--json'])) as { sessionID: string; status: string }[];
      expect(runsOnB.map((summary) => summary.sessionID).sort()).toEqual(
        runsOfA.map((row) => row.session_id).sort(),
      );
      expect(runsOnB.every((summary) => summary.status === 'completed')).toBe(true);
      const spentByA = runsOfA.reduce((sum, row) => sum + (row.cost_usd ?? 0), 0);
      expect(spentByA).toBeGreaterThan(0);
      const budgetOnB = (await flotillaOnB(['budget', '--json'])) as { totalSpentUSD: number };
      expect(budgetOnB.totalSpentUSD).toBeCloseTo(spentByA, 9);
      // Neither machine's SQLite holds them: the history is only in PostgreSQL.
      for (const root of [repo.root, machineB]) {
        const local = readDatabase(root, (db) => ({
          runs: (db.prepare('SELECT COUNT(*) AS n FROM agent_runs').get() as { n: number }).n,
          ledger: (db.prepare('SELECT COUNT(*) AS n FROM budget_ledger').get() as { n: number }).n,
        }));
        expect(local).toEqual({ runs: 0, ledger: 0 });
      }
    },
    TIMEOUT,
  );

  it('a history or local-tracker command without the database variable fails naming it', async () => {
    const repo = await fixtures.configuredDemoRepository({
      checks: { command: null },
      cluster: { postgres: '$FLOTILLA_DATABASE_URL' },
    });
    const env: Record<string, string | undefined> = { ...process.env, ...repo.gitEnv };
    delete env.FLOTILLA_DATABASE_URL;
    const failing = (args: string[]) =>
      run(process.execPath, [FLOTILLA_BIN, ...args], { cwd: repo.root, env }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
    const failed = await failing(['runs']);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('$FLOTILLA_DATABASE_URL (cluster.postgres) is not set');
    // The local provider's items are in the cluster's PostgreSQL too: never this clone's empty SQLite.
    const listed = await failing(['work', 'list', '--json']);
    expect(listed?.code).toBe(2);
    expect(listed?.stderr).toContain('$FLOTILLA_DATABASE_URL (cluster.postgres) is not set');
  });
});
