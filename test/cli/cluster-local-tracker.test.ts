/**
 * The local provider's tracker in PostgreSQL (issue #33, src/storage/README.md "Two backends"): controller A
 * leads in the repository, controller B stands by in ANOTHER clone (its own `.flotilla/`, its own branches),
 * a worker in a third. A's planner creates the item and A records the implementor's revision (the branch
 * `flotilla/1` exists only in A's clone and under the published `refs/flotilla/cluster/`); A is killed with
 * SIGKILL while the reviewer's run waits on the model. B takes the lease, adopts the published branches and
 * the reviewer's run, records the approval — and on B's machine `flotilla work list` shows the item, and
 * `flotilla merge` merges the revision A wrote into B's default branch.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  holdFirstArrival,
  ONE_ITEM_PLAN,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
  WRITE_GREET,
} from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { readDatabase, startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const run = promisify(execFile);
const cluster = setUpClusterPostgres();
const { fixtures } = cluster;

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;

/** The one-item loop whose reviewer's first request waits for `released`. */
function heldReviewRoutes(released: Promise<unknown>) {
  return [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [{ structuredOutput: ONE_ITEM_PLAN }],
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
        holdFirstArrival(
          {
            structuredOutput: {
              role: 'reviewer',
              review: { verdict: 'approve', summary: 'ok', comments: [] },
            },
          },
          released,
        ),
      ],
    },
  ];
}

interface ListedItem {
  id: string;
  title: string;
  status: string;
}

describe('the local tracker in PostgreSQL: a standby in another clone continues the items', () => {
  it(
    "after kill -9 of the leader, B's clone lists the items, finishes the review and merges A's revision",
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      fixtures.defer(async () => release());
      const server = await fixtures.serve({ name: 'pg-tracker', routes: heldReviewRoutes(released) });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        scheduler: { retryBaseDelay: 1, retryMaxDelay: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3, leaseTimeout: 2 },
      });
      const [machineB, workerClone] = await sharedRemoteWithClones(fixtures, repo.root, [
        'controller-b',
        'worker',
      ]);
      if (machineB === undefined || workerClone === undefined) throw new Error('no clones');
      const env = cluster.env(repo.gitEnv, server.url);
      const flotillaOn = async (cwd: string, args: string[]) =>
        (await run(process.execPath, [FLOTILLA_BIN, ...args], { cwd, env: { ...process.env, ...env } }))
          .stdout;
      const worker = startWorker(fixtures, workerClone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);
      const leader = startFlotillaRun(fixtures, repo.root, env);
      await leader.waitForOutput("as the cluster's controller (lease token 1)", STEP_TIMEOUT);
      const standby = startFlotillaRun(fixtures, machineB, env, ['--until-idle']);
      await standby.waitForOutput(/standby — controller \S+ leads \(lease token 1\)/, STEP_TIMEOUT);
      const context = () =>
        [
          leader.output(),
          flotillaLogTail(repo.root, 60),
          standby.output(),
          flotillaLogTail(machineB, 60),
        ].join('\n---\n');
      await waitForCondition(
        () => server.requestsFor('reviewer').length === 1,
        STEP_TIMEOUT,
        "the reviewer's first request",
        context,
      );
      // A wrote the revision: its branch is in A's clone, not (yet) in B's.
      const headOfA = execFileSync('git', ['rev-parse', 'flotilla/1'], { cwd: repo.root }).toString().trim();
      expect(() =>
        execFileSync('git', ['rev-parse', '--verify', '--quiet', 'flotilla/1'], { cwd: machineB }),
      ).toThrow();
      // B's machine already sees A's item, through its own clone's CLI.
      const listedOnB = JSON.parse(await flotillaOn(machineB, ['work', 'list', '--json'])) as ListedItem[];
      expect(listedOnB).toEqual([expect.objectContaining({ id: '1', title: 'Add greet(name)' })]);

      await leader.killGroup();
      await standby.waitForOutput("as the cluster's controller (lease token 2)", STEP_TIMEOUT);
      await waitForCondition(
        () => flotillaLogTail(machineB, 200).includes('adopted the runs a previous controller left'),
        STEP_TIMEOUT,
        "B to adopt the reviewer's run",
        context,
      );
      // B took the revision branch over from what A published.
      expect(execFileSync('git', ['rev-parse', 'flotilla/1'], { cwd: machineB }).toString().trim()).toBe(
        headOfA,
      );
      release();
      const exitCode = await standby.exited;
      expect(exitCode, context()).toBe(0);
      expect(standby.output()).toContain('#1 approved, waiting for you to merge it');

      const approved = JSON.parse(await flotillaOn(machineB, ['work', 'list', '--json'])) as ListedItem[];
      expect(approved).toEqual([expect.objectContaining({ id: '1', status: 'approved' })]);
      // One revision and one approving review, whoever recorded them.
      const recorded = readClusterState(cluster.url(), (sql) => ({
        revisions: sql.all<{ id: number; branch_name: string; head_sha: string }>(
          'SELECT id, branch_name, head_sha FROM revisions',
        ),
        reviews: sql.all<{ state: string }>('SELECT state FROM reviews'),
      }));
      expect(recorded).toEqual({
        revisions: [{ id: 2, branch_name: 'flotilla/1', head_sha: headOfA }],
        reviews: [{ state: 'APPROVED' }],
      });

      // A human on B's machine merges A's revision into B's default branch.
      await flotillaOn(machineB, ['merge', '1']);
      expect(execFileSync('git', ['show', 'main:src/greet.js'], { cwd: machineB }).toString()).toContain(
        'Hello, ',
      );
      const closed = JSON.parse(
        await flotillaOn(machineB, ['work', 'list', '--state', 'closed', '--json']),
      ) as ListedItem[];
      expect(closed.map((item) => item.id)).toEqual(['1']);
      // Neither clone's SQLite holds the tracker: it is only in PostgreSQL.
      for (const root of [repo.root, machineB]) {
        const local = readDatabase(root, (db) => db.prepare('SELECT COUNT(*) AS n FROM work_items').get());
        expect(local).toEqual({ n: 0 });
      }
    },
    TIMEOUT,
  );
});
