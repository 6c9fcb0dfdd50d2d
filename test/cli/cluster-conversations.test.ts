/**
 * Conversations between agents on different machines (issue #28 §3, issue #33) end to end: a controller and
 * two `flotilla worker`s (one slot each, each in its own clone of a shared bare repository) over a real
 * PostgreSQL; the agents are the real Claude Agent SDK in the OS sandbox against the scripted model server.
 * The two implementors run at once, so on different workers. Agent A (item #1) first asks item #9, which is
 * not running, and is told so at once; then it asks B (item #2). The question crosses PostgreSQL
 * (src/cluster/create-run-messages.ts) to B's worker and into B's live session while B works; B answers and
 * works on; the answer crosses back to A's worker, and A's next model request carries it. Both items are
 * approved, and `flotilla conversations` on the controller lists both conversations. Each agent's replies are
 * a small state machine over what its requests carry, so nothing waits for a fixed time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentConversation } from '../../src/domain/index.ts';
import type { RequestView, Scenario, StepReply } from '../../src/model-server/index.ts';
import type { ContentBlockSpec } from '../../src/model-server/scenario-schema.ts';
import { sharedRemoteWithClones, startWorker, untilTakingRuns } from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { APPROVE } from '../support/run-scenarios.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures, query } = cluster;

const TIMEOUT = 240_000;
const STEP_TIMEOUT = 120_000;
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'done' };
const PLAN = {
  role: 'planner',
  create: [
    { tempID: 'a', title: 'Serve on the port', body: 'Objective: serve.', labels: [], blockedBy: [] },
    { tempID: 'b', title: 'Choose the port', body: 'Objective: choose.', labels: [], blockedBy: [] },
  ],
  close: [],
  update: [],
};

const bash = (command: string): StepReply => ({
  content: [{ type: 'tool_use', name: 'Bash', input: { command } } satisfies ContentBlockSpec],
});
const tool = (name: string, input: Record<string, unknown>): StepReply => ({
  content: [{ type: 'tool_use', name: `mcp__flotilla__${name}`, input }],
});

/** What the agents saw, for the assertions. */
interface Seen {
  notRunning?: string;
  answer?: string;
  question?: string;
}

/** A's replies: ask #9 (not running), then B until it is joined, write what B said and complete. */
function agentA(seen: Seen) {
  let phase: 'start' | 'nobody' | 'asking' | 'write' | 'done' = 'start';
  return (request: RequestView): StepReply => {
    const result = request.lastToolResult?.text ?? '';
    if (phase === 'start') {
      phase = 'nobody';
      return tool('ask_agent', { to: '9', question: 'Are you there?', timeoutSeconds: 60 });
    }
    if (phase === 'nobody') {
      seen.notRunning = result;
      phase = 'asking';
      return tool('ask_agent', { to: '2', question: 'Which port?', timeoutSeconds: 60 });
    }
    if (phase === 'asking') {
      if (result.includes('Port 8080.')) {
        seen.answer = result;
        phase = 'write';
        return bash("printf 'Port 8080.\\n' > reply.txt");
      }
      // B not enqueued yet (the scheduler starts one run at a time): a pause, then again.
      if (result.includes('nobody was asked')) return bash('sleep 0.3');
      return tool('ask_agent', { to: '2', question: 'Which port?', timeoutSeconds: 60 });
    }
    phase = 'done';
    return { structuredOutput: COMPLETED };
  };
}

/** B's replies: work until A's question is in its session, answer it, work on, complete. */
function agentB(seen: Seen) {
  let phase: 'working' | 'answered' | 'done' = 'working';
  return (request: RequestView): StepReply => {
    if (phase === 'working') {
      const id = /conversation (c-[a-z0-9-]+):\nWhich port\?/.exec(request.messagesText)?.[1];
      if (id === undefined) return bash('sleep 0.5');
      seen.question = request.messagesText;
      phase = 'answered';
      return tool('answer_agent', { conversationId: id, answer: 'Port 8080.' });
    }
    if (phase === 'answered') {
      phase = 'done';
      return bash("printf 'after\\n' > after.txt");
    }
    return { structuredOutput: COMPLETED };
  };
}

const tail = (path: string) =>
  existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-40).join('\n') : `(no ${path})`;

describe('flotilla worker: agents on different workers ask each other', () => {
  it(
    'A on one worker asks B on another: B answers mid-work, A gets it; asking a run not running answers at once',
    async () => {
      const seen: Seen = {};
      const many = (respond: (request: RequestView) => StepReply) =>
        Array.from({ length: 300 }, () => ({ respond }));
      const scenario: Scenario = {
        name: 'cluster-conversations',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [{ structuredOutput: PLAN }],
          },
          {
            name: 'reviewer',
            match: { systemIncludes: 'You are the reviewer' },
            steps: [{ structuredOutput: APPROVE }, { structuredOutput: APPROVE }],
          },
          {
            name: 'a',
            match: { systemIncludes: 'You are the implementor', firstUserIncludes: 'Objective: serve.' },
            steps: many(agentA(seen)),
          },
          {
            name: 'b',
            match: { systemIncludes: 'You are the implementor', firstUserIncludes: 'Objective: choose.' },
            steps: many(agentB(seen)),
          },
        ],
      };
      const server = await fixtures.serve(scenario);
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3 },
      });
      const clones = await sharedRemoteWithClones(fixtures, repo.root, ['worker-a', 'worker-b']);
      const env = cluster.env(repo.gitEnv, server.url);
      const workers = clones.map((clone) => startWorker(fixtures, clone, env));
      for (const worker of workers) await untilTakingRuns(worker, STEP_TIMEOUT);

      const controller = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      const context = () =>
        [
          controller.output(),
          flotillaLogTail(repo.root, 40),
          ...workers.map((worker) => worker.output()),
          ...clones.map((clone) => tail(join(clone, '.flotilla/logs/worker-0.log'))),
          JSON.stringify(seen),
        ].join('\n---\n');
      let exitCode: number | null | undefined;
      void controller.exited.then((code) => {
        exitCode = code;
      });
      await waitForCondition(() => exitCode !== undefined, STEP_TIMEOUT, 'the controller to finish', context);
      expect(exitCode, context()).toBe(0);
      expect(controller.output()).toContain('work item #1 review → approved');
      expect(controller.output()).toContain('work item #2 review → approved');

      // Asking #9 was answered at once; B's answer is in A's next request (the tool result it carries).
      expect(seen.notRunning).toMatch(/No answer \(not-running, .*no agent of work item #9 is running now/);
      expect(seen.answer).toMatch(/^Answer \(conversation c-[a-z0-9-]+\): Port 8080\.$/);
      expect(seen.question).toContain('Question from another agent (the implementor of #1)');

      // The two implementors ran on different workers (executor ids carry the worker's pid).
      const sessions = readClusterState(cluster.url(), (sql) =>
        sql.all<{ session_id: string }>("SELECT session_id FROM agent_runs WHERE role = 'implementor'"),
      ).map((row) => row.session_id);
      expect(sessions).toHaveLength(2);
      const executors = await query<{ executor_id: string }>(
        'SELECT executor_id FROM dbos.workflow_status WHERE workflow_uuid = ANY($1)',
        [sessions],
      );
      const ranOn = executors.map((row) =>
        workers.findIndex((worker) => row.executor_id.includes(`-${worker.pid}-`)),
      );
      expect(ranOn.sort()).toEqual([0, 1]);

      // A wrote what B told it; B worked on after it answered.
      const git = (args: string[]) => execFileSync('git', args, { cwd: repo.root }).toString();
      expect(git(['show', 'flotilla/1:reply.txt'])).toBe('Port 8080.\n');
      expect(git(['show', 'flotilla/2:after.txt'])).toBe('after\n');

      const listed = JSON.parse(
        execFileSync(process.execPath, [FLOTILLA_BIN, 'conversations', '--json'], {
          cwd: repo.root,
          env: { ...process.env, ...env },
        }).toString(),
      ) as AgentConversation[];
      const rows = listed.map((conversation) => [
        conversation.question,
        conversation.status,
        conversation.answer,
      ]);
      // Asks of B before it was enqueued end at once, not-running; the one that reached it is answered.
      expect(rows).toContainEqual(['Which port?', 'answered', 'Port 8080.']);
      expect(rows.filter(([question]) => question === 'Are you there?').map(([, status]) => status)).toEqual([
        'not-running',
      ]);
      expect(
        rows.filter(([, status]) => status !== 'not-running' && status !== 'answered'),
        JSON.stringify(rows),
      ).toEqual([]);
      // Every run's reply landed: its messages were forgotten.
      const left = async () =>
        (await query<{ n: number }>('SELECT count(*)::int AS n FROM public.flotilla_run_messages'))[0]?.n;
      for (let tries = 0; (await left()) !== 0; tries += 1) {
        if (tries > 100) throw new Error(`conversation messages left after the loop\n${context()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    TIMEOUT,
  );
});
