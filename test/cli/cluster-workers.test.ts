/**
 * Cluster mode end to end (issue #33): a controller (`flotilla run --headless --until-idle` with
 * `cluster.postgres`) and two `flotilla worker` processes, each in its own clone of a shared bare repository,
 * over a real PostgreSQL. Agents are the real Claude Agent SDK in the OS sandbox, answered by the scripted
 * model server on 127.0.0.1. The worker that holds the implementor's run is killed with SIGKILL (its whole
 * process group) mid-request: the run completes on the other worker, and no attempt is counted for it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  killGroup,
  oneItemLoopRoutes,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
} from '../support/cluster-processes.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures, query } = cluster;

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;

const tail = (path: string) =>
  existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-40).join('\n') : `(no ${path})`;

describe('flotilla worker: a controller and two workers over PostgreSQL', () => {
  it(
    'completes the loop on the workers; a worker killed mid-run has its run finished by the other, no attempt counted',
    async () => {
      const server = await fixtures.serve({
        name: 'cluster',
        routes: oneItemLoopRoutes(),
      });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 2 },
      });
      // The shared remote: a bare repository every machine's clone has as `origin`.
      const clones = await sharedRemoteWithClones(fixtures, repo.root, ['worker-a', 'worker-b']);
      const env = cluster.env(repo.gitEnv, server.url);
      const workers = clones.map((clone) => startWorker(fixtures, clone, env));
      for (const worker of workers) await untilTakingRuns(worker, STEP_TIMEOUT);

      const controller = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      /** What failed waits print: every process's output and the workers' logs. */
      const context = () =>
        [
          controller.output(),
          flotillaLogTail(repo.root, 40),
          ...workers.map((worker) => worker.output()),
          ...clones.map((clone) => tail(join(clone, '.flotilla/logs/worker-0.log'))),
        ].join('\n---\n');
      await waitForCondition(
        () => server.requestsFor('implementor').length === 1,
        STEP_TIMEOUT,
        "the implementor's first request",
        context,
      );
      // Which worker runs it: the executor of the one pending run (executor ids begin with the worker's id).
      const pending = await query<{ executor_id: string }>(
        "SELECT executor_id FROM dbos.workflow_status WHERE status = 'PENDING'",
      );
      expect(pending).toHaveLength(1);
      const executor = pending[0]?.executor_id ?? '';
      const doomed = workers.find((worker) => executor.includes(`-${worker.pid}-`));
      const survivor = workers.find((worker) => worker !== doomed);
      if (doomed === undefined || survivor === undefined) throw new Error(`no worker runs ${executor}`);
      await killGroup(doomed.pid);

      let exitCode: number | null | undefined;
      void controller.exited.then((code) => {
        exitCode = code;
      });
      await waitForCondition(() => exitCode !== undefined, STEP_TIMEOUT, 'the controller to finish', context);
      expect(exitCode).toBe(0);
      // In cluster mode the run history is in PostgreSQL (src/storage/README.md "Two backends").
      const runs = readClusterState(cluster.url(), (sql) =>
        sql.all<{ role: string; status: string }>(
          'SELECT role, status FROM agent_runs ORDER BY requested_at, rowid',
        ),
      );
      // One run per role, each completed: the killed execution was not an attempt.
      expect(runs).toEqual([
        { role: 'planner', status: 'completed' },
        { role: 'implementor', status: 'completed' },
        { role: 'reviewer', status: 'completed' },
      ]);
      // The implementor's workflow was finished by the survivor's executor.
      const implementorSession = readClusterState(
        cluster.url(),
        (sql) =>
          sql.get<{ session_id: string }>("SELECT session_id FROM agent_runs WHERE role = 'implementor'")
            ?.session_id,
      );
      const finished = await query<{ executor_id: string; status: string }>(
        'SELECT executor_id, status FROM dbos.workflow_status WHERE workflow_uuid = $1',
        [implementorSession],
      );
      expect(finished).toHaveLength(1);
      expect(finished[0]?.status).toBe('SUCCESS');
      expect(finished[0]?.executor_id).toContain(`-${survivor.pid}-`);
      // The second execution asked the model again, from the survivor; the first request never answered.
      expect(server.requestsFor('implementor')).toHaveLength(3);
      // The patch the survivor made is the approved revision in the controller's repository.
      const revision = execFileSync('git', ['show', 'flotilla/1:src/greet.js'], {
        cwd: repo.root,
      }).toString();
      expect(revision).toContain('Hello, ');
    },
    TIMEOUT,
  );
});
