/**
 * A worker's machine comes back (issue #33): `flotilla worker` is killed with SIGKILL while its slot's agent
 * works, leaving the run's worktree in its clone. Started again in the same clone, the worker first ends what
 * the killed one left and removes its worktree and run state, then takes runs — among them the requeued one,
 * which completes. A second worker in a clone that has one is refused, naming it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  killGroup,
  oneItemLoopRoutes,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
} from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures } = cluster;
const run = promisify(execFile);

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;

const worktreesOf = (clone: string) => {
  const dir = join(clone, '.worktrees');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('flotilla worker: restarted in the clone a killed worker left', () => {
  it(
    "removes the killed worker's worktree before taking runs, finishes the requeued run; one worker per clone",
    async () => {
      const server = await fixtures.serve({ name: 'worker-restart', routes: oneItemLoopRoutes() });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 2 },
      });
      const [clone] = await sharedRemoteWithClones(fixtures, repo.root, ['worker']);
      if (clone === undefined) throw new Error('no clone');
      const env = cluster.env(repo.gitEnv, server.url);
      const first = startWorker(fixtures, clone, env);
      await untilTakingRuns(first, STEP_TIMEOUT);
      const controller = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      const context = () => [controller.output(), flotillaLogTail(repo.root, 40)].join('\n---\n');
      await waitForCondition(
        () => server.requestsFor('implementor').length === 1,
        STEP_TIMEOUT,
        "the implementor's first request",
        context,
      );
      const left = worktreesOf(clone);
      expect(left).toHaveLength(1);
      await killGroup(first.pid);
      // The machine "comes back": the killed worker's worktree is still in its clone.
      expect(worktreesOf(clone)).toEqual(left);

      const second = startWorker(fixtures, clone, env);
      await untilTakingRuns(second, STEP_TIMEOUT);
      expect(second.output()).toMatch(/cleaned what a killed worker left in this clone: 1 worktree\(s\)/);
      expect(worktreesOf(clone).filter((name) => left.includes(name))).toEqual([]);

      // One worker per clone: a third one here is refused, naming the one that runs.
      const refused = await run(process.execPath, [FLOTILLA_BIN, 'worker'], {
        cwd: clone,
        env: { ...process.env, ...env },
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toContain(`a flotilla worker already runs in this clone (pid ${second.pid}`);

      // The requeued run completes on the restarted worker, and the loop ends approved.
      expect(await controller.exited, context()).toBe(0);
      expect(controller.output()).toContain('work item #1 review → approved');
      expect(server.requestsFor('implementor')).toHaveLength(3);
    },
    TIMEOUT,
  );
});
