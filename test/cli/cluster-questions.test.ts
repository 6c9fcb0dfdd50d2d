/**
 * Questions across machines (issue #33): in cluster mode an implementor on a worker stops to ask a human.
 * The worker keeps no session (another machine may take the continuation), the controller parks the item as
 * on one machine, `flotilla answer` answers it, and a worker runs a new session whose first prompt is the
 * item's full context followed by the questions and the answer — then the loop ends approved.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ONE_ITEM_PLAN,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
  WRITE_GREET,
} from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures, query } = cluster;
const run = promisify(execFile);

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;
const QUESTION = 'Should greet trim the name?';
const ANSWER = 'Yes, trim it.';
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'greet added' };

describe('flotilla worker: an agent on a worker asks a human', () => {
  it(
    'parks the item, and the answer continues the work in a new session on a worker with the questions and answer',
    async () => {
      const server = await fixtures.serve({
        name: 'cluster-questions',
        onUnmetExpectation: 'reject',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [{ structuredOutput: ONE_ITEM_PLAN }],
          },
          {
            // The continuation: a new session, whose first prompt carries the item, the question and the answer.
            name: 'implementor-answered',
            match: {
              systemIncludes: 'You are the implementor',
              firstUserIncludes: 'Your earlier session asked a human',
            },
            steps: [
              {
                expect: { lastUserIncludes: ['## Work Item #1', QUESTION, ANSWER] },
                content: [WRITE_GREET],
              },
              { structuredOutput: COMPLETED },
            ],
          },
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [
              { structuredOutput: { role: 'implementor', outcome: 'questions', questions: [QUESTION] } },
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
      const [workerClone] = await sharedRemoteWithClones(fixtures, repo.root, ['worker']);
      if (workerClone === undefined) throw new Error('no clone');
      const env = cluster.env(repo.gitEnv, server.url);
      const worker = startWorker(fixtures, workerClone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);
      const controller = startFlotillaRun(fixtures, repo.root, env);
      const context = () =>
        [controller.output(), flotillaLogTail(repo.root, 60), worker.output()].join('\n---\n');
      await controller.waitForOutput('work item #1 in-progress → waiting-for-input', STEP_TIMEOUT);

      // The waiting session is the cluster's (PostgreSQL), with nothing kept on the worker to resume.
      const waiting = await query<{ agent_session_id: string | null; worktree_path: string | null }>(
        'SELECT agent_session_id, worktree_path FROM flotilla_state.waiting_sessions',
      );
      expect(waiting).toEqual([{ agent_session_id: null, worktree_path: null }]);

      const answered = await run(process.execPath, [FLOTILLA_BIN, 'answer', '1', ANSWER], {
        cwd: repo.root,
        env: { ...process.env, ...env },
      });
      expect(answered.stdout).toContain('#1');
      await waitForCondition(
        () => controller.output().includes('work item #1 review → approved'),
        TIMEOUT / 2,
        'the answered item to be approved',
        context,
      );
      expect(await controller.stop(60_000), context()).toBe(0);

      // Two implementor sessions: the one that asked, and the new one that got the answer.
      const implementorSessions = new Set(
        server.requests
          .filter((request) => request.route?.startsWith('implementor') && request.kind === 'step')
          .map((request) => request.headers['x-claude-code-session-id']),
      );
      expect(implementorSessions.size).toBe(2);
      expect(server.report().problems).toEqual([]);
    },
    TIMEOUT,
  );
});
