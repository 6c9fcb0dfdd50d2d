/**
 * Budgets hold fleet-wide (issue #33): the controller's engine stops a run on a worker when the day's spend
 * reaches `budgets.dailyUsd`, from the usage the slot streams while it runs — the worker itself has no cap
 * (no per-run cap is set, so its SDK session has no `maxBudgetUsd`). Every implementor request costs $0.04
 * (10,000 input tokens at the CLI default model's $4 per million); the cap is $0.10, so the third answer
 * reaches it while the fourth request waits, never answered. The run ends as a budget stop, its workflow is
 * cancelled on the worker, and the ledger holds what the three answers cost.
 */
import { describe, expect, it } from 'vitest';
import {
  hangFirstArrival,
  ONE_ITEM_PLAN,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
  WRITE_GREET,
} from '../support/cluster-processes.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures } = cluster;

const TIMEOUT = 240_000;
const STEP_TIMEOUT = 90_000;
const COSTLY = { input_tokens: 10_000, output_tokens: 0 };
const FREE = { input_tokens: 0, output_tokens: 0 };

describe('flotilla worker: a budget cap reached mid-run', () => {
  it(
    "the controller stops a worker's run when the day's spend reaches its cap, from the streamed usage",
    async () => {
      const server = await fixtures.serve({
        name: 'cluster-budget-cap',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [{ structuredOutput: ONE_ITEM_PLAN, usage: FREE }],
          },
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [
              { content: [WRITE_GREET], usage: COSTLY },
              { content: [WRITE_GREET], usage: COSTLY },
              { content: [WRITE_GREET], usage: COSTLY },
              // Never answered: the cap is reached before.
              hangFirstArrival({ content: [WRITE_GREET], usage: COSTLY }),
            ],
          },
        ],
      });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        budgets: { dailyUsd: 0.1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3 },
      });
      const [clone] = await sharedRemoteWithClones(fixtures, repo.root, ['worker']);
      if (clone === undefined) throw new Error('no clone');
      const env = cluster.env(repo.gitEnv, server.url);
      const worker = startWorker(fixtures, clone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);
      const controller = startFlotillaRun(fixtures, repo.root, env);
      const context = () =>
        [controller.output(), flotillaLogTail(repo.root, 60), worker.output()].join('\n---\n');
      const implementorRun = () =>
        readClusterState(cluster.url(), (sql) =>
          sql.get<{ status: string; error: string | null; cost_usd: number | null }>(
            "SELECT status, error, cost_usd FROM agent_runs WHERE role = 'implementor'",
          ),
        );
      await waitForCondition(
        () => ['failed', 'cancelled'].includes(implementorRun()?.status ?? ''),
        STEP_TIMEOUT,
        "the implementor's run to be stopped",
        context,
      );
      // A budget stop is recorded as a cancelled run whose error says which cap (`flotilla runs`: budget).
      expect(implementorRun()?.error).toMatch(
        /^budget: stopped at the day's cap of \$0\.10 \(spent \$0\.12\)/,
      );
      expect(implementorRun()?.cost_usd).toBeCloseTo(0.12, 6);
      // The fourth request was made and never answered: the run was stopped mid-run, not at its end.
      expect(server.requestsFor('implementor')).toHaveLength(4);
      // The worker was told: its workflow is cancelled, not left running the agent.
      await waitForCondition(
        () =>
          readClusterState(cluster.url(), (sql) =>
            sql.all<{ status: string }>('SELECT status FROM dbos.workflow_status'),
          ).every((row) => row.status !== 'PENDING'),
        STEP_TIMEOUT,
        'no workflow left running on the worker',
        context,
      );
      await controller.killGroup();
    },
    TIMEOUT,
  );
});
