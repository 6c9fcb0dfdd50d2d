/**
 * A remote run's transcript from any machine (issue #33): a controller and a `flotilla worker` in separate
 * clones over a real PostgreSQL, the real Claude Agent SDK in the OS sandbox against the scripted model server.
 * The worker's slot copies the run's transcript file into PostgreSQL as it grows
 * (src/cluster/start-transcript-mirror.ts); `flotilla logs` in the CONTROLLER's clone — which has no file for
 * the run — prints it: mid-run while the implementor's second model request is held, still after `kill -9` of
 * the worker (issue #28 §5's bound: what the file held 3 s before the kill is there), and whole once a restarted
 * worker finished the requeued run (both executions, each under its own line). The decision the agent records
 * reaches the controller's state mid-run too (the progress stream), and once per execution.
 *
 * Why this fails without the copy: the controller's clone never has the run's file (its `log_file_path` is
 * null, checked below), so `flotilla logs` would exit 1 "has no transcript".
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  killGroup,
  ONE_ITEM_PLAN,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
  WRITE_GREET,
} from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures } = cluster;

const TIMEOUT = 300_000;
const STEP_TIMEOUT = 90_000;
/** Issue #28 §5: a transcript is flushed at least every 3 s, so a kill loses at most the last 3 s. */
const FLUSH_BOUND_MS = 3_000;
const SAID = 'Checking the tree first.';

/**
 * The implementor's first turn: text, one Bash command whose output (built by printf) is `MARKER-1`, a write and
 * a decision recorded through Flotilla's note tool.
 */
const MARKER_TURN = {
  content: [
    { type: 'text' as const, text: SAID },
    {
      type: 'tool_use' as const,
      name: 'Bash',
      input: { command: "printf 'MARKER-%d\\n' 1", description: 'Marker' },
    },
    WRITE_GREET,
    {
      type: 'tool_use' as const,
      name: 'mcp__flotilla__record_decision',
      input: { decision: 'greet returns a string', why: 'simplest' },
    },
  ],
};

const BASH_CALL = "ASSISTANT [tool_use] Bash\n  command: printf 'MARKER-%d\\n' 1\n";
const BASH_RESULT = /USER \[tool_result\] ok\n\s+MARKER-1\n/;

describe('flotilla logs: a remote run’s transcript through PostgreSQL', () => {
  it(
    "the controller's clone prints a worker's transcript mid-run, after kill -9 of the worker, and whole at the end",
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      fixtures.defer(async () => release());
      // The implementor's second request: the first arrival is held (and recorded), later ones answered.
      const heldAt: number[] = [];
      const heldStep = {
        structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'looked' },
        check: () => {
          heldAt.push(Date.now());
          return undefined;
        },
        hold: () => (heldAt.length <= 1 ? released : Promise.resolve()),
      };
      const server = await fixtures.serve({
        name: 'remote-logs',
        routes: [
          {
            name: 'planner',
            match: { systemIncludes: 'You are the planner' },
            steps: [{ structuredOutput: ONE_ITEM_PLAN }],
          },
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [MARKER_TURN, heldStep],
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
      const first = startWorker(fixtures, clone, env);
      await untilTakingRuns(first, STEP_TIMEOUT);
      const controller = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      const context = () =>
        [controller.output(), flotillaLogTail(repo.root, 60), first.output()].join('\n---\n');
      await waitForCondition(
        () => heldAt.length === 1,
        STEP_TIMEOUT,
        "the implementor's held request",
        context,
      );
      const [sessionID, logFilePath] = readClusterState(cluster.url(), (sql) => {
        const row = sql.get<{ session_id: string; log_file_path: string | null }>(
          "SELECT session_id, log_file_path FROM agent_runs WHERE role = 'implementor'",
        );
        return [row?.session_id ?? '', row?.log_file_path];
      });
      expect(sessionID).not.toBe('');
      // The controller has no file for the run: what `flotilla logs` prints there came through PostgreSQL.
      expect(logFilePath).toBeNull();
      const decisionsOf = (session: string) =>
        readClusterState(cluster.url(), (sql) =>
          sql
            .all<{ text: string }>(
              "SELECT text FROM agent_notes WHERE kind = 'decision' AND session_id = ? ORDER BY created_at",
              [session],
            )
            .map((row) => row.text),
        );
      const logs = (...args: string[]) =>
        execFileSync(process.execPath, [FLOTILLA_BIN, 'logs', ...args], {
          cwd: repo.root,
          env: { ...process.env, ...env },
        }).toString();

      // Mid-run: the bound, not a guess at how long anything takes — what was written 3 s ago is there.
      const waited = Date.now() - (heldAt[0] ?? 0);
      if (waited < FLUSH_BOUND_MS) await sleep(FLUSH_BOUND_MS - waited);
      const midRun = logs('--full', sessionID);
      expect(midRun).toMatch(/^=== Agent Session ===\nType: implementor\n/);
      expect(midRun).toContain(SAID);
      expect(midRun).toContain(BASH_CALL);
      expect(midRun).toMatch(BASH_RESULT);
      expect(midRun).not.toContain('=== Session End ===');
      // Its decision reached the controller mid-run through the progress stream, not with the reply.
      expect(decisionsOf(sessionID)).toEqual(['greet returns a string']);
      // Any unique prefix names it, shortened by default, as for a local run.
      expect(logs(sessionID.slice(0, 8))).toContain(SAID);

      // kill -9 of the worker (its slot and agent): everything streamed before stays readable.
      await killGroup(first.pid);
      expect(logs('--full', sessionID)).toBe(midRun);

      // The machine comes back: the run was requeued; the restarted worker runs it again and it completes.
      const second = startWorker(fixtures, clone, env);
      await untilTakingRuns(second, STEP_TIMEOUT);
      let exitCode: number | null | undefined;
      void controller.exited.then((code) => {
        exitCode = code;
      });
      await waitForCondition(
        () => exitCode !== undefined,
        STEP_TIMEOUT * 2,
        'the loop to complete',
        () => [context(), second.output()].join('\n---\n'),
      );
      expect(exitCode, context()).toBe(0);
      // One decision per execution: the finishing one's arrived streamed, and its reply did not repeat it.
      expect(decisionsOf(sessionID)).toEqual(['greet returns a string', 'greet returns a string']);

      const whole = logs('--full', sessionID);
      const [killed = '', finished = ''] = whole.split(/^--- execution 2 of 2: worker slot .+ ---\n/m);
      expect(killed).toMatch(/^--- execution 1 of 2: worker slot .+ \(requeued: its worker stopped\) ---\n/);
      expect(killed).toContain(midRun);
      expect(finished).toMatch(/^=== Agent Session ===\nType: implementor\n/);
      expect(finished).toMatch(BASH_RESULT);
      expect(finished).toContain('=== Session End ===\nOutcome: completed\n');
      // Exactly what the worker's file holds (redacted and capped there): the newest transcript of the run.
      const logsDir = join(clone, '.flotilla', 'logs', 'sessions');
      const files = readdirSync(logsDir)
        .filter((name) => name.includes(sessionID.slice(0, 8)))
        .sort();
      expect(files).toHaveLength(2);
      expect(finished).toBe(readFileSync(join(logsDir, files.at(-1) ?? ''), 'utf8'));
      expect(killed).toContain(readFileSync(join(logsDir, files[0] ?? ''), 'utf8').slice(0, midRun.length));
    },
    TIMEOUT,
  );
});
