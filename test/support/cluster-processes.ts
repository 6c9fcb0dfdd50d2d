/**
 * What the cluster's end-to-end tests share (test/cli/cluster-*.test.ts): a `flotilla worker` as a process
 * group of its own, the shared remote with a clone per simulated machine, and the one-item scripted loop whose
 * implementor's first request hangs (its executor or controller is killed while it waits).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOTILLA_BIN, type RunFixtures } from './create-run-fixtures.ts';
import { processGroupMembers } from './flotilla-run-process.ts';
import { waitForCondition } from './start-flotilla-process.ts';

export const ONE_ITEM_PLAN = {
  role: 'planner',
  create: [{ tempID: 'a', title: 'Add greet(name)', body: 'Objective: greet.', labels: [], blockedBy: [] }],
  close: [],
  update: [],
};

export const WRITE_GREET = {
  type: 'tool_use' as const,
  name: 'Write',
  input: {
    file_path: '{{cwd}}/src/greet.js',
    content: "export const greet = (n) => 'Hello, ' + n + '!';\n",
  },
};

/**
 * A step whose first request hangs (its worker is killed while it waits) and whose later ones are answered at
 * once: the step index is the conversation's, so the second execution's first request meets this step too.
 * `check` runs first for each request; the server reads `delayMs` after it.
 */
export function hangFirstArrival<Step extends object>(step: Step) {
  let arrivals = 0;
  return {
    ...step,
    check: () => {
      arrivals += 1;
      return undefined;
    },
    get delayMs() {
      return arrivals <= 1 ? 600_000 : 0;
    },
  };
}

/**
 * A step whose first request waits until `released` settles (the test releases it once what it tests
 * happened); later ones are answered at once.
 */
export function holdFirstArrival<Step extends object>(step: Step, released: Promise<unknown>) {
  let arrivals = 0;
  return {
    ...step,
    check: () => {
      arrivals += 1;
      return undefined;
    },
    hold: () => (arrivals <= 1 ? released : Promise.resolve()),
  };
}

/**
 * The planner, implementor and approving reviewer routes of the one-item loop. The implementor's first
 * request hangs (its run is killed while it waits), or waits for `released` when given.
 */
export function oneItemLoopRoutes(released?: Promise<unknown>) {
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
        released === undefined
          ? hangFirstArrival({ content: [WRITE_GREET] })
          : holdFirstArrival({ content: [WRITE_GREET] }, released),
        { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greet added' } },
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
  ];
}

/** A `flotilla worker` in its own process group (so SIGKILL reaches its slots and their agents). */
export interface WorkerProcess {
  pid: number;
  output(): string;
  child: ChildProcess;
}

export function startWorker(
  fixtures: RunFixtures,
  clone: string,
  env: Record<string, string>,
  slots = 1,
): WorkerProcess {
  let output = '';
  const child = spawn(process.execPath, [FLOTILLA_BIN, 'worker', '--slots', String(slots)], {
    cwd: clone,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('flotilla worker did not start');
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  fixtures.defer(async () => killGroup(pid));
  return { pid, output: () => output, child };
}

/** Resolves once every slot of `worker` takes runs (its first line says so); fails with its output. */
export function untilTakingRuns(worker: WorkerProcess, timeoutMs: number): Promise<void> {
  return waitForCondition(
    () => worker.output().includes('slot(s) taking runs'),
    timeoutMs,
    'the worker to take runs',
    () => worker.output(),
  );
}

/** SIGKILL to the process group `pid` leads; resolves once no process of it runs. */
export async function killGroup(pid: number): Promise<void> {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
  await waitForCondition(() => processGroupMembers(pid).length === 0, 20_000, 'the worker group to end');
}

/**
 * The shared remote: a bare clone of `repoRoot`, added to it as `origin`, and one clone of it per name (each a
 * simulated machine). Removed at cleanup.
 */
export async function sharedRemoteWithClones(
  fixtures: RunFixtures,
  repoRoot: string,
  names: readonly string[],
): Promise<string[]> {
  const shared = await mkdtemp(join(tmpdir(), 'flotilla-cluster-'));
  fixtures.defer(() => rm(shared, { recursive: true, force: true }));
  const bare = join(shared, 'remote.git');
  execFileSync('git', ['clone', '--quiet', '--bare', repoRoot, bare]);
  execFileSync('git', ['remote', 'add', 'origin', bare], { cwd: repoRoot });
  return names.map((name) => {
    const clone = join(shared, name);
    execFileSync('git', ['clone', '--quiet', bare, clone]);
    return clone;
  });
}
