/**
 * The local provider's merges reach the shared remote (issue #33, src/providers/local/README.md "Cluster
 * mode"): a leader in the repository and a worker in a clone take three items to approval with the tracker in
 * PostgreSQL. Then, with no manual git step anywhere: `flotilla merge 1` on the leader's machine puts it on
 * the bare remote's main; on machine B (a clone that never led) a main with a commit of its own is refused,
 * naming it, and keeps it; once that commit is moved aside `flotilla merge 2` fetches the revision branch
 * and the leader's merge and pushes; the leader's clone follows B's merge before it merges item 3.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
  WRITE_GREET,
} from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail } from '../support/start-flotilla-process.ts';

const run = promisify(execFile);
const cluster = setUpClusterPostgres();
const { fixtures } = cluster;

const TIMEOUT = 400_000;
const STEP_TIMEOUT = 90_000;

const item = (tempID: string, title: string) => ({
  tempID,
  title,
  body: `Objective: ${title}.`,
  labels: [],
  blockedBy: [],
});

/** Three items; every implementor writes the same file (so later merges are clean merge commits). */
const ROUTES = [
  {
    name: 'planner',
    match: { systemIncludes: 'You are the planner' },
    steps: [
      {
        structuredOutput: {
          role: 'planner',
          create: [item('a', 'Add greet(name)'), item('b', 'Greet again'), item('c', 'Greet once more')],
          close: [],
          update: [],
        },
      },
    ],
  },
  {
    name: 'implementor',
    match: { systemIncludes: 'You are the implementor' },
    steps: [
      { content: [WRITE_GREET] },
      { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greet added' } },
    ],
  },
  {
    name: 'reviewer',
    match: { systemIncludes: 'You are the reviewer' },
    steps: [
      { structuredOutput: { role: 'reviewer', review: { verdict: 'approve', summary: 'ok', comments: [] } } },
    ],
  },
];

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd }).toString().trim();
const contains = (cwd: string, ancestor: string, ref: string) => {
  try {
    execFileSync('git', ['merge-base', '--is-ancestor', ancestor, ref], { cwd });
    return true;
  } catch {
    return false;
  }
};

describe("the local provider's merges in a cluster land on the shared remote's default branch", () => {
  it(
    "merges from the leader's clone and from another clone both reach the bare remote; a diverged main is refused",
    async () => {
      const server = await fixtures.serve({ name: 'pg-merge', routes: ROUTES });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        scheduler: { retryBaseDelay: 1, retryMaxDelay: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3, leaseTimeout: 2 },
      });
      const [machineB, workerClone] = await sharedRemoteWithClones(fixtures, repo.root, [
        'machine-b',
        'worker',
      ]);
      if (machineB === undefined || workerClone === undefined) throw new Error('no clones');
      const bare = git(repo.root, ['remote', 'get-url', 'origin']);
      const env = cluster.env(repo.gitEnv, server.url);
      const processEnv = { ...process.env, ...env };
      const flotilla = (cwd: string, args: string[]) =>
        run(process.execPath, [FLOTILLA_BIN, ...args], { cwd, env: processEnv });

      const worker = startWorker(fixtures, workerClone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);
      const leader = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      const exitCode = await leader.exited;
      expect(exitCode, `${leader.output()}\n${flotillaLogTail(repo.root, 80)}`).toBe(0);
      const heads = ['1', '2', '3'].map((id) => git(repo.root, ['rev-parse', `flotilla/${id}`]));
      const [first = '', second = '', third = ''] = heads;

      // The leader's machine: the merge is on the remote's main.
      await flotilla(repo.root, ['merge', '1']);
      expect(contains(bare, first, 'main')).toBe(true);
      expect(git(repo.root, ['rev-parse', 'main'])).toBe(git(bare, ['rev-parse', 'main']));

      // Machine B never led: no flotilla/2 here. A commit of B's own on main is refused and kept.
      expect(() => git(machineB, ['rev-parse', '--verify', '--quiet', 'flotilla/2'])).toThrow();
      execFileSync('git', ['commit', '--quiet', '--allow-empty', '-m', 'my own work'], {
        cwd: machineB,
        env: processEnv,
      });
      const own = git(machineB, ['rev-parse', 'main']);
      const refused = await flotilla(machineB, ['merge', '2']).catch((error: unknown) => error);
      const failure = refused as { code?: number; stderr?: string };
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain('main here has 1 commit(s) that origin/main lacks');
      expect(failure.stderr).toContain('my own work');
      expect(git(machineB, ['rev-parse', 'main'])).toBe(own);
      expect(contains(bare, second, 'main')).toBe(false);

      // Moved aside, B's merge fetches what it needs and pushes.
      git(machineB, ['branch', 'mine', 'main']);
      git(machineB, ['reset', '--quiet', '--keep', 'origin/main']);
      await flotilla(machineB, ['merge', '2']);
      expect(git(machineB, ['rev-parse', 'flotilla/2'])).toBe(second);
      const afterB = git(bare, ['rev-parse', 'main']);
      expect(git(machineB, ['rev-parse', 'main'])).toBe(afterB);
      for (const head of [first, second]) expect(contains(bare, head, 'main')).toBe(true);

      // The leader's clone follows B's merge, then merges item 3 on top of it.
      await flotilla(repo.root, ['merge', '3']);
      const final = git(bare, ['rev-parse', 'main']);
      expect(git(repo.root, ['rev-parse', 'main'])).toBe(final);
      expect(contains(bare, afterB, final)).toBe(true);
      expect(contains(bare, third, final)).toBe(true);
      expect(git(machineB, ['log', '-1', '--format=%s', 'mine'])).toBe('my own work');
      const closed = JSON.parse(
        (await flotilla(machineB, ['work', 'list', '--state', 'closed', '--json'])).stdout,
      ) as { id: string }[];
      expect(closed.map((entry) => entry.id).sort()).toEqual(['1', '2', '3']);
    },
    TIMEOUT,
  );
});
