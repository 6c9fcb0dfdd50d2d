import type { RunExecutor } from './create-durable-run-queue.ts';

/**
 * A worker slot's runs, fenced by its heartbeat (issue #33): a slot paused past its heartbeat timeout (its
 * runs given to another executor meanwhile) must not start a run it dequeued on waking, nor deliver the
 * reply of a run it held. `holds` renews the heartbeat row and says whether it is still this executor's;
 * when it is not, the heartbeat has already called its `onLost` (the slot exits at once, and its agent's
 * sandbox dies with it: bwrap `--die-with-parent`), and the run is abandoned: its workflow never gets this
 * execution's reply (DBOS would refuse it anyway: a requeued workflow has a new owner). A run taken and
 * abandoned so is requeued by the controller's sweep (`requeueOrphanedRuns`).
 */
export function guardRunExecutor(
  execute: RunExecutor['execute'],
  holds: () => Promise<boolean>,
): RunExecutor['execute'] {
  return async (message, execution) => {
    if (!(await holds())) return abandoned();
    const reply = await execute(message, execution);
    if (!(await holds())) return abandoned();
    return reply;
  };
}

/** Never settles: the slot is exiting, and nothing of this execution may reach the queue. */
function abandoned(): Promise<never> {
  return new Promise<never>(() => {});
}
