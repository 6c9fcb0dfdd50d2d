/**
 * Live progress across machines (issue #33): a controller and one `flotilla worker` over a real PostgreSQL,
 * the real Claude Agent SDK in the OS sandbox against the scripted model server. The implementor's second
 * model request is held: while its run is still on the worker, the controller's engine has already recorded
 * the run's usage (a live ledger row, not ended) from what the slot streamed (src/cluster/create-run-progress.ts),
 * and the slot's text is in the progress table; released, the loop completes and the stream is forgotten.
 */
import { describe, expect, it } from 'vitest';
import {
  holdFirstArrival,
  ONE_ITEM_PLAN,
  sharedRemoteWithClones,
  startWorker,
  WRITE_GREET,
} from '../support/cluster-processes.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures, query } = cluster;

const TIMEOUT = 240_000;
const STEP_TIMEOUT = 90_000;
const SAID = 'Writing greet now.';

interface LedgerRow {
  role: string;
  input_tokens: number | null;
  model: string | null;
  ended: number;
}

const ledgerOf = (url: string, role: string) =>
  readClusterState(url, (sql) =>
    sql.get<LedgerRow>('SELECT role, input_tokens, model, ended FROM budget_ledger WHERE role = ?', [role]),
  );

describe('flotilla worker: a running run streams its usage and output to the controller', () => {
  it(
    "the controller records a remote run's usage while it runs; its text reaches PostgreSQL mid-run",
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      fixtures.defer(async () => release());
      const server = await fixtures.serve({
        name: 'live-progress',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [{ structuredOutput: ONE_ITEM_PLAN }],
          },
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [
              { content: [{ type: 'text' as const, text: SAID }, WRITE_GREET] },
              holdFirstArrival(
                { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greet added' } },
                released,
              ),
            ],
          },
          {
            name: 'reviewer',
            match: { systemIncludes: 'You are the reviewer' },
            steps: [
              {
                structuredOutput: {
                  role: 'reviewer',
                  review: { verdict: 'approve', summary: 'ok', comments: [] },
                },
              },
            ],
          },
        ],
      });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3 },
      });
      const [clone] = await sharedRemoteWithClones(fixtures, repo.root, ['worker-a']);
      if (clone === undefined) throw new Error('no clone');
      const env = cluster.env(repo.gitEnv, server.url);
      const worker = startWorker(fixtures, clone, env);
      await waitForCondition(
        () => worker.output().includes('slot(s) taking runs'),
        STEP_TIMEOUT,
        'the worker to take runs',
        () => worker.output(),
      );
      const controller = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      let exitCode: number | null | undefined;
      void controller.exited.then((code) => {
        exitCode = code;
      });
      const context = () =>
        [controller.output(), flotillaLogTail(repo.root, 60), worker.output()].join('\n---\n');
      // The implementor's first answer (text and a tool call) is in; its second request waits.
      await waitForCondition(
        () => server.requestsFor('implementor').length === 2,
        STEP_TIMEOUT,
        "the implementor's second request",
        context,
      );
      // Mid-run: the controller's engine recorded the usage the slot streamed (the reply has not landed).
      await waitForCondition(
        () => (ledgerOf(cluster.url(), 'implementor')?.input_tokens ?? 0) > 0,
        STEP_TIMEOUT,
        "the implementor's live usage on the controller",
        context,
      );
      expect(ledgerOf(cluster.url(), 'implementor')).toMatchObject({ ended: 0 });
      expect(exitCode).toBeUndefined();
      const [workflow] = await query<{ status: string }>(
        "SELECT status FROM dbos.workflow_status WHERE status = 'PENDING'",
      );
      expect(workflow?.status).toBe('PENDING');
      const streamed = await query<{ output: string }>(
        'SELECT output FROM public.flotilla_run_progress ORDER BY seq',
      );
      expect(streamed.map((row) => row.output).join('')).toContain(SAID);

      release();
      await waitForCondition(() => exitCode !== undefined, STEP_TIMEOUT, 'the loop to complete', context);
      expect(exitCode).toBe(0);
      expect(ledgerOf(cluster.url(), 'implementor')).toMatchObject({ ended: 1 });
      // Every reply landed: the streams were forgotten.
      const remaining = async () =>
        (await query<{ n: number }>('SELECT count(*)::int AS n FROM public.flotilla_run_progress'))[0]?.n;
      for (let tries = 0; (await remaining()) !== 0; tries += 1) {
        if (tries > 100) throw new Error(`progress rows left after the loop\n${context()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    TIMEOUT,
  );
});
