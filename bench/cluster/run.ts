/**
 * Cluster vs one machine (issue #33): the same ITEMS-item scripted run (planner → items → implementor →
 * reviewer, every model answer MODEL_LATENCY_MS late) once on one machine with ONE_MACHINE_AGENTS agents,
 * once with the controller here and AGENTS agents across WORKERS `flotilla worker` processes (clones of a
 * shared remote, slots = AGENTS / WORKERS each) over a real PostgreSQL started for the run. The controller
 * runs in this process (createControlPlane, as `flotilla run` does) so its events can be counted. Prints per
 * mode: items per minute, queue wait (item ready → implementor requested), dispatch latency (implementor
 * requested → its agent's first model request), the controller's CPU per engine event (this process: the
 * control plane and the scripted model server; the agents and workers are other processes), and in cluster
 * mode PostgreSQL's CPU over the run (its processes' CPU time from /proc, before and after) and its peak
 * connection count.
 * Run: npm run bench:cluster  (the issue's scale: ITEMS=60, ONE_MACHINE_AGENTS=20, AGENTS=50, WORKERS=5,
 * MODEL_LATENCY_MS=3000, TIMEOUT=1800 seconds; a small machine runs a smaller one: bench/cluster/README.md)
 */

import pg from 'pg';
import { createControlPlane } from '../../src/app/create-control-plane.ts';
import { waitUntilIdle } from '../../src/app/wait-until-idle.ts';
import { loadConfig } from '../../src/config/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { type AgentRequest, crashTrialRoutes } from '../../test/support/cluster-crash-trial-scenario.ts';
import { sharedRemoteWithClones, startWorker } from '../../test/support/cluster-processes.ts';
import { createRunFixtures } from '../../test/support/create-run-fixtures.ts';
import { clusterProcessEnv } from '../../test/support/set-up-cluster-postgres.ts';
import { waitForCondition } from '../../test/support/start-flotilla-process.ts';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { readPostgresCpuMs } from './read-postgres-cpu.ts';

const ITEMS = Number(process.env.ITEMS ?? 60);
const ONE_MACHINE_AGENTS = Number(process.env.ONE_MACHINE_AGENTS ?? 20);
const AGENTS = Number(process.env.AGENTS ?? 50);
const WORKERS = Number(process.env.WORKERS ?? 5);
const MODEL_LATENCY_MS = Number(process.env.MODEL_LATENCY_MS ?? 3000);
const TIMEOUT_S = Number(process.env.TIMEOUT ?? 1800);
/** Which runs, in order: `MODES=cluster,one-machine` runs the cluster first (on a machine quiet for a while). */
const MODES = (process.env.MODES ?? 'one-machine,cluster').split(',').map((mode) => {
  if (mode !== 'one-machine' && mode !== 'cluster')
    throw new Error(`MODES: expected "one-machine" and/or "cluster" separated by commas, got "${mode}"`);
  return mode;
});

interface Row {
  mode: string;
  agents: number;
  approved: number;
  wallMs: number;
  queueWaitMs: number[];
  dispatchMs: number[];
  events: number;
  cpuMs: number;
  /** Cluster mode: PostgreSQL's CPU over the run, and its most connections at once. */
  postgres?: { cpuMs: number; peakConnections: number };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);
};
const seconds = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(2)}s`);

async function runMode(
  mode: 'one machine' | 'cluster',
  agents: number,
  postgres: TestPostgres | null,
): Promise<Row> {
  const postgresUrl = postgres?.url ?? null;
  const fixtures = createRunFixtures();
  try {
    const seen: AgentRequest[] = [];
    const routes = crashTrialRoutes(ITEMS, 0, seen);
    for (const route of routes)
      for (const step of route.steps) Object.assign(step, { delayMs: MODEL_LATENCY_MS });
    const server = await fixtures.serve({ name: 'bench-cluster', routes });
    const repo = await fixtures.configuredDemoRepository({
      checks: { command: null },
      pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
      scheduler: { maxConcurrentAgents: agents },
      ...(postgresUrl !== null && {
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 15, leaseTimeout: 30 },
      }),
    });
    const env = clusterProcessEnv(repo.gitEnv, postgresUrl ?? '', server.url);
    if (postgresUrl !== null) {
      process.env.FLOTILLA_DATABASE_URL = postgresUrl;
      const names = Array.from({ length: WORKERS }, (_, index) => `worker-${index}`);
      const clones = await sharedRemoteWithClones(fixtures, repo.root, names);
      const slots = Math.ceil(agents / WORKERS);
      const workers = clones.map((clone) => startWorker(fixtures, clone, env, slots));
      for (const worker of workers)
        await waitForCondition(
          () => worker.output().includes('slot(s) taking runs'),
          // Slots start one process each: many of them on a loaded machine take minutes.
          600_000,
          'a worker',
          worker.output,
        );
    }
    const loaded = await loadConfig(repo.root);
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const controlPlane = await createControlPlane({
      repoRoot: repo.root,
      config: loaded.config,
      logger: silentLogger,
      extraEnv: env,
      // What `flotilla run` does: a controller that lost its lease stops; the bench says so instead of crashing.
      onDeposed: (token) => {
        console.error(
          `cluster: the controller lost its lease (token ${token}): a stall longer than leaseTimeout`,
        );
        process.exit(1);
      },
    });
    const { engine } = controlPlane;
    let events = 0;
    const ready = new Map<string, number>();
    const requested = new Map<string, number>();
    engine.onEvent((event) => {
      events += 1;
      if (event.type === 'workItemChanged' && event.newStatus === 'ready')
        ready.set(event.workItemID, Date.now());
      if (event.type === 'implementorRequested' && !requested.has(event.workItemID))
        requested.set(event.workItemID, Date.now());
    });
    const database = postgres === null ? null : watchPostgres(postgres);
    const cpuBefore = process.cpuUsage();
    const started = Date.now();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
    }, TIMEOUT_S * 1000);
    await engine.start();
    await waitUntilIdle(controlPlane, () => timedOut);
    clearTimeout(timer);
    const wallMs = Date.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const postgresFigures = await database?.stop();
    const state = engine.getState();
    const items = Object.values(state.workItems).filter((item) => item.title.startsWith('Add module'));
    const queueWaitMs: number[] = [];
    const dispatchMs: number[] = [];
    for (const item of items) {
      const at = requested.get(item.id);
      const readyAt = ready.get(item.id);
      if (at !== undefined && readyAt !== undefined) queueWaitMs.push(at - readyAt);
      const module = Number(/module(\d+)/.exec(item.title)?.[1]);
      const first = seen.find((request) => request.item === module && request.role === 'implementor');
      if (at !== undefined && first !== undefined) dispatchMs.push(first.at - at);
    }
    await controlPlane.close();
    return {
      mode,
      agents,
      ...(postgresFigures !== undefined && { postgres: postgresFigures }),
      approved: items.filter((item) => item.status === 'approved').length,
      wallMs,
      queueWaitMs,
      dispatchMs,
      events,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    await fixtures.cleanup();
  }
}

/**
 * PostgreSQL's CPU from /proc (read-postgres-cpu.ts) from now to `stop`, and its most connections at once
 * (pg_stat_activity, sampled every second).
 */
function watchPostgres(postgres: TestPostgres) {
  const cpuBefore = readPostgresCpuMs(postgres.pid());
  const pool = new pg.Pool({ connectionString: postgres.url, max: 1 });
  let peakConnections = 0;
  const sample = async () => {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend'",
    );
    peakConnections = Math.max(peakConnections, rows[0]?.n ?? 0);
  };
  let sampling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(sample).catch(() => undefined);
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      await pool.end();
      return { cpuMs: readPostgresCpuMs(postgres.pid()) - cpuBefore, peakConnections };
    },
  };
}

console.log(
  `bench cluster: ${ITEMS} items; one machine ${ONE_MACHINE_AGENTS} agents; cluster ${AGENTS} agents on ${WORKERS} workers; model latency ${MODEL_LATENCY_MS} ms`,
);
const HEADER =
  'mode         agents  approved  wall     items/min  queue wait p50/p90   dispatch p50/p90     events  CPU ms/event  postgres CPU  pg conns';
/** A mode's line, printed as soon as it finished (a later mode that fails does not lose it). */
function printRow(row: Row): void {
  console.log(
    [
      row.mode.padEnd(12),
      String(row.agents).padEnd(7),
      `${row.approved}/${ITEMS}`.padEnd(9),
      seconds(row.wallMs).padEnd(8),
      (row.approved / (row.wallMs / 60_000)).toFixed(1).padEnd(10),
      `${seconds(percentile(row.queueWaitMs, 50))}/${seconds(percentile(row.queueWaitMs, 90))}`.padEnd(20),
      `${seconds(percentile(row.dispatchMs, 50))}/${seconds(percentile(row.dispatchMs, 90))}`.padEnd(20),
      String(row.events).padEnd(7),
      (row.cpuMs / Math.max(1, row.events)).toFixed(2).padEnd(13),
      (row.postgres === undefined ? '—' : seconds(row.postgres.cpuMs)).padEnd(13),
      row.postgres === undefined ? '—' : String(row.postgres.peakConnections),
    ].join(' '),
  );
}

console.log(HEADER);
for (const mode of MODES) {
  if (mode === 'one-machine') printRow(await runMode('one machine', ONE_MACHINE_AGENTS, null));
  else {
    // Each slot holds a few connections (its DBOS executor, a DBOS client, its heartbeat's pool).
    const database = await startPostgres({ maxConnections: Math.max(100, AGENTS * 8 + 20) });
    try {
      printRow(await runMode('cluster', AGENTS, database));
    } finally {
      database.stop();
    }
  }
}
