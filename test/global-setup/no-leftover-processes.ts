import { randomUUID } from 'node:crypto';
import {
  findMarkedProcesses,
  type MarkedProcess,
  waitForNoProcesses,
} from '../support/find-marked-processes.ts';

/** Set for the whole run; every process the tests start inherits it (vitest's workers, and their children). */
export const TEST_RUN_VARIABLE = 'FLOTILLA_TEST_RUN';
/** How long processes still being torn down at the end get to go. */
const GRACE_MS = 5_000;
/** How long SIGKILLed leftovers get to disappear from /proc before the guard reports them. */
const KILL_WAIT_MS = 10_000;

/**
 * Vitest's global setup: marks the run, and at teardown fails it when a process the tests started is still
 * alive — a child a test forgot to end, often reparented to PID 1 — naming each one (then ends them, so one
 * run's leak does not outlive it). Vitest's own worker processes carry the marker too and are left out.
 */
export default function setup(): () => Promise<void> {
  return startLeftoverProcessGuard({ graceMs: GRACE_MS });
}

/** What `setup` does, with the grace period as a parameter (its test gives a short one). */
export function startLeftoverProcessGuard(options: { graceMs: number }): () => Promise<void> {
  const marker = `${TEST_RUN_VARIABLE}=${randomUUID()}`;
  process.env[TEST_RUN_VARIABLE] = marker.slice(TEST_RUN_VARIABLE.length + 1);
  return async () => {
    const leftovers = await waitForNoProcesses(
      () => findMarkedProcesses(marker).filter((found) => !isVitestWorker(found)),
      { graceMs: options.graceMs, pollMs: 100 },
    );
    if (leftovers.length === 0) return;
    for (const { pid } of leftovers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended just now.
      }
    }
    // SIGKILL is delivered asynchronously: wait until they are gone, so the run (and this guard's own test)
    // sees them ended, not still exiting.
    const stillAlive = new Set(leftovers.map((found) => found.pid));
    await waitForNoProcesses(() => findMarkedProcesses(marker).filter((found) => stillAlive.has(found.pid)), {
      graceMs: KILL_WAIT_MS,
      pollMs: 20,
    });
    // Vitest reports an error thrown here ("error during close") but still exits 0: fail the run itself.
    process.exitCode = 1;
    throw new Error(
      `The tests left ${leftovers.length} process(es) running (${TEST_RUN_VARIABLE} in their environment), ended now:\n${leftovers.map((found) => `  pid ${found.pid} (parent ${found.parentPid}): ${found.command}`).join('\n')}`,
    );
  };
}

/** One of vitest's forked workers: a child of this (the main) process running vitest's code. */
function isVitestWorker(found: MarkedProcess): boolean {
  return found.parentPid === process.pid && found.command.includes('vitest');
}
