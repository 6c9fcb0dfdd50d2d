/**
 * The cluster's crash trial (issue #33 "Done when"), shared by test/cli/cluster-crash-trial.test.ts (a few
 * kills) and bench/cluster-crash-trial (ten): two controllers (`flotilla run --headless --until-idle`, one
 * leads, one waits) in the repository and `workers` `flotilla worker` processes in clones of its shared
 * remote, over a real PostgreSQL, through an `items`-item scripted run. `kills` times a seeded random picks
 * the controller that leads or a worker and kills its process group with SIGKILL once the model server has
 * answered a seeded number of agent requests; the killed process is started again at once (as a supervisor
 * would). It ends when the last controller exited; the report holds what the caller checks.
 */
import pg from 'pg';
import { createDurableRunQueue } from '../../src/cluster/create-durable-run-queue.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import {
  type AgentRequest,
  crashTrialRoutes,
  findOverlaps,
  seededRandom,
} from './cluster-crash-trial-scenario.ts';
import { killGroup, sharedRemoteWithClones, startWorker, type WorkerProcess } from './cluster-processes.ts';
import type { RunFixtures } from './create-run-fixtures.ts';
import { type FlotillaRunProcess, startFlotillaRun } from './flotilla-run-process.ts';
import { readClusterState } from './read-cluster-state.ts';
import { clusterProcessEnv } from './set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from './start-flotilla-process.ts';

export interface CrashTrialOptions {
  fixtures: RunFixtures;
  postgresUrl: string;
  seed: number;
  items: number;
  kills: number;
  workers?: number;
  /** The implementor's first answer is this late (kills land mid-run); default 1000 ms. */
  latencyMs?: number;
  /** The whole trial's limit; default 10 minutes. */
  timeoutMs?: number;
  /** Progress lines (the kills); default none. */
  log?: (line: string) => void;
}

export interface CrashTrialReport {
  seed: number;
  kills: string[];
  durationMs: number;
  /** Task items by title: their status labels. */
  items: { title: string; status: string }[];
  /** Per item title: its revisions' count, and their reviews' count. */
  revisions: Record<string, number>;
  reviews: Record<string, number>;
  /** Two agents of one role on one item at once (should be empty). */
  overlaps: string[];
  /** The budget ledger's recorded spend, and the sum of the replies the workers finished (DBOS outputs). */
  ledgerUSD: number;
  repliesUSD: number;
  /** Runs per status in the run history. */
  runs: Record<string, number>;
  /** The failed runs: role, error, and what became of the run's workflow on the queue. */
  failedRuns: string[];
  /** The exit codes of the controllers that were not killed. */
  controllerExits: (number | null)[];
}

type Target = { kind: 'controller' } | { kind: 'worker'; index: number };

export async function runCrashTrial(options: CrashTrialOptions): Promise<CrashTrialReport> {
  const { fixtures, seed, items } = options;
  const log = options.log ?? (() => {});
  const random = seededRandom(seed);
  const workerCount = options.workers ?? 3;
  const seen: AgentRequest[] = [];
  const server = await fixtures.serve({
    name: 'crash-trial',
    routes: crashTrialRoutes(items, options.latencyMs ?? 1000, seen),
  });
  const repo = await fixtures.configuredDemoRepository({
    checks: { command: null },
    pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
    scheduler: { retryBaseDelay: 1, retryMaxDelay: 1, maxConcurrentAgents: workerCount },
    cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3, leaseTimeout: 2 },
  });
  const clones = await sharedRemoteWithClones(
    fixtures,
    repo.root,
    Array.from({ length: workerCount }, (_, index) => `worker-${index}`),
  );
  const env = clusterProcessEnv(repo.gitEnv, options.postgresUrl, server.url);
  const started = Date.now();
  const deadline = started + (options.timeoutMs ?? 600_000);
  const remaining = () => Math.max(1000, deadline - Date.now());
  const workers: WorkerProcess[] = clones.map((clone) => startWorker(fixtures, clone, env));
  const controllers: { process: FlotillaRunProcess; exit?: number | null; killed: boolean }[] = [];
  const startController = () => {
    const process = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
    const entry: (typeof controllers)[number] = { process, killed: false };
    void process.exited.then((code) => {
      entry.exit = code;
    });
    controllers.push(entry);
  };
  startController();
  startController();
  const context = () =>
    [
      ...controllers.map(({ process }) => process.output().slice(-2000)),
      flotillaLogTail(repo.root, 80),
      ...workers.map((worker) => worker.output().slice(-1500)),
    ].join('\n---\n');
  const running = () => controllers.filter((entry) => entry.exit === undefined && !entry.killed);
  const leader = () =>
    running().find(({ process }) => process.output().includes("as the cluster's controller"));

  // The thresholds: agent requests answered before each kill, spread over the run's first two thirds.
  const expected = items * 3;
  const thresholds = Array.from({ length: options.kills }, () => 1 + Math.floor(random() * expected * 0.66))
    .sort((a, b) => a - b)
    .map((value, index) => value + index);
  const kills: string[] = [];
  for (const [index, threshold] of thresholds.entries()) {
    await waitForCondition(
      () => seen.length >= threshold || running().length === 0,
      remaining(),
      `${threshold} agent requests`,
      context,
    );
    if (running().length === 0) break;
    const target: Target =
      random() < 0.35
        ? { kind: 'controller' }
        : { kind: 'worker', index: Math.floor(random() * workerCount) };
    if (target.kind === 'controller') {
      await waitForCondition(
        () => leader() !== undefined || running().length === 0,
        remaining(),
        'a leader',
        context,
      );
      const entry = leader();
      if (entry === undefined) break;
      entry.killed = true;
      await entry.process.killGroup();
      startController();
    } else {
      const worker = workers[target.index];
      const clone = clones[target.index];
      if (worker === undefined || clone === undefined) throw new Error('no such worker');
      await killGroup(worker.pid);
      workers[target.index] = startWorker(fixtures, clone, env);
    }
    const line = `kill ${index + 1}: ${target.kind === 'controller' ? 'the leading controller' : `worker-${target.index}`} after ${seen.length} agent requests`;
    kills.push(line);
    log(line);
  }
  await waitForCondition(() => running().length === 0, remaining(), 'the controllers to finish', context);
  return {
    seed,
    kills,
    durationMs: Date.now() - started,
    ...readTracker(options.postgresUrl),
    overlaps: findOverlaps(seen),
    // The run history and ledger are in PostgreSQL in cluster mode (src/storage/README.md "Two backends").
    ...readClusterState(options.postgresUrl, (sql) => ({
      ledgerUSD:
        sql.get<{ usd: number }>('SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM budget_ledger')?.usd ?? 0,
      runs: Object.fromEntries(
        sql
          .all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM agent_runs GROUP BY status')
          .map(({ status, n }) => [status, n]),
      ),
    })),
    failedRuns: await describeFailedRuns(options.postgresUrl),
    repliesUSD: await sumReplies(options.postgresUrl),
    controllerExits: controllers.filter((entry) => !entry.killed).map((entry) => entry.exit ?? null),
  };
}

/**
 * Task items with their status label, and per item its revisions and their reviews: from the local tracker,
 * which is in PostgreSQL in cluster mode (src/storage/README.md "Two backends").
 */
function readTracker(postgresUrl: string): Pick<CrashTrialReport, 'items' | 'revisions' | 'reviews'> {
  return readClusterState(postgresUrl, (sql) => {
    const items = sql.all<{ title: string; status: string }>(
      `SELECT w.title AS title, COALESCE((SELECT l.label FROM work_item_labels l
         WHERE l.work_item_id = w.id AND l.label LIKE 'status:%'), '') AS status
       FROM work_items w WHERE w.title LIKE 'Add module%' ORDER BY w.id`,
    );
    const count = (query: string) =>
      Object.fromEntries(sql.all<{ title: string; n: number }>(query).map(({ title, n }) => [title, n]));
    return {
      items,
      revisions: count(
        `SELECT w.title AS title, COUNT(r.id) AS n FROM work_items w JOIN revisions r ON r.work_item_id = w.id
         GROUP BY w.id, w.title`,
      ),
      reviews: count(
        `SELECT w.title AS title, COUNT(v.id) AS n FROM work_items w JOIN revisions r ON r.work_item_id = w.id
         JOIN reviews v ON v.revision_id = r.id GROUP BY w.id, w.title`,
      ),
    };
  });
}

/** The summed cost of every reply a worker finished (the runs as the workers ran them). */
async function sumReplies(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const queue = createDurableRunQueue({ databaseUrl: url, logger: silentLogger });
  try {
    const { rows } = await pool.query<{ workflow_uuid: string }>(
      "SELECT workflow_uuid FROM dbos.workflow_status WHERE status = 'SUCCESS'",
    );
    let total = 0;
    for (const { workflow_uuid } of rows) total += (await queue.result(workflow_uuid)).usage?.costUSD ?? 0;
    return total;
  } finally {
    await queue.close();
    await pool.end();
  }
}

/**
 * The runs not completed: role, error, and their workflow's status on the queue ("never enqueued" when the
 * controller was killed between recording the run and enqueueing it).
 */
async function describeFailedRuns(url: string): Promise<string[]> {
  const failed = readClusterState(url, (sql) =>
    sql.all<{ session_id: string; role: string; error: string | null }>(
      "SELECT session_id, role, error FROM agent_runs WHERE status <> 'completed'",
    ),
  );
  if (failed.length === 0) return [];
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query<{ workflow_uuid: string; status: string; executor_id: string }>(
      'SELECT workflow_uuid, status, executor_id FROM dbos.workflow_status WHERE workflow_uuid = ANY($1)',
      [failed.map((run) => run.session_id)],
    );
    const workflows = new Map(rows.map((row) => [row.workflow_uuid, `${row.status} on ${row.executor_id}`]));
    return failed.map(
      ({ session_id, role, error }) =>
        `${role}: ${error ?? '(no error)'} [workflow: ${workflows.get(session_id) ?? 'never enqueued'}]`,
    );
  } finally {
    await pool.end();
  }
}
