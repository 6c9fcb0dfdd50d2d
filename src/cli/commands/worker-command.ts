import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { messageOf } from '../../shared/message-of.ts';
import { resolveFlotillaPaths } from '../../shared/resolve-flotilla-paths.ts';
import { CliError } from '../support/cli-error.ts';
import { findRepoRoot } from '../support/find-repo-root.ts';
import { parsePositiveInteger } from '../support/parse-positive-integer.ts';
import { runCliAction } from '../support/run-cli-action.ts';

interface WorkerOptions {
  slots: number;
  /** Internal: this process is slot `slot` of worker `workerId` (spawned by the worker itself). */
  slot?: number;
  workerId?: string;
}

/**
 * `flotilla worker [--slots N]` (issue #33): on a machine with a clone of the repository, takes agent runs
 * from the cluster's queue (config `cluster.postgres`) and runs them with this clone's runtimes. Each slot is
 * a process of its own (one DBOS executor, one run at a time); the worker restarts a slot that stops.
 * Stops on SIGINT/SIGTERM, putting runs in flight back on the queue.
 */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('take agent runs from the cluster queue (config "cluster") and run them in this clone')
    .option('--slots <n>', 'runs at once on this machine', parsePositiveInteger, 1)
    .addOption(new Option('--slot <n>').argParser((value) => Number(value)).hideHelp())
    .addOption(new Option('--worker-id <id>').hideHelp())
    .action(
      runCliAction('worker', async (options: WorkerOptions) => {
        const repoRoot = await findRepoRoot(process.cwd());
        if (repoRoot === null)
          throw new CliError('flotilla worker: not inside a git repository', { exitCode: 2 });
        const { loadConfig } = await import('../../config/load-config.ts');
        const loaded = await loadConfig(repoRoot);
        if (!loaded.ok) throw new CliError(loaded.errors.join('\n'), { exitCode: 2 });
        if (loaded.config.cluster === undefined)
          throw new CliError(
            'flotilla worker: flotilla.config.json has no "cluster" section: set "cluster": { "postgres": "$FLOTILLA_DATABASE_URL" }',
            { exitCode: 2 },
          );
        if (options.slot !== undefined && options.workerId !== undefined) {
          await runSlot(repoRoot, loaded.config, options.workerId, options.slot);
          return;
        }
        const { recoverWorkerClone } = await import('../../app/recover-worker-clone.ts');
        const { createFileLogger } = await import('../../logging/create-file-logger.ts');
        const paths = resolveFlotillaPaths(repoRoot);
        const logger = createFileLogger({
          path: join(paths.logsDir, 'worker.log'),
          level: loaded.config.logging.level,
        });
        // One worker per clone, and whatever a killed one left here (agents, worktrees) is gone first.
        const recovery = await recoverWorkerClone({ repoRoot, config: loaded.config, paths, logger }).catch(
          (error: unknown) => {
            logger.close();
            throw new CliError(`flotilla worker: ${messageOf(error)}`, { exitCode: 1 });
          },
        );
        const { reapedWorktrees, reapedProcesses, reapedStateDirs } = recovery;
        if (reapedWorktrees.length + reapedProcesses + reapedStateDirs.length > 0)
          process.stdout.write(
            `flotilla worker: cleaned what a killed worker left in this clone: ${reapedWorktrees.length} worktree(s), ${reapedProcesses} agent process(es), ${reapedStateDirs.length} run state dir(s)\n`,
          );
        try {
          await superviseSlots(repoRoot, options.slots);
        } finally {
          recovery.lock.release();
          logger.close();
        }
      }),
    );
}

type Config = Extract<
  Awaited<ReturnType<typeof import('../../config/load-config.ts').loadConfig>>,
  { ok: true }
>['config'];

/** A slot process: serves until SIGTERM, or until its worker is gone (the IPC channel closes). */
async function runSlot(repoRoot: string, config: Config, workerID: string, slot: number): Promise<void> {
  const { createFileLogger } = await import('../../logging/create-file-logger.ts');
  const { runWorkerSlot } = await import('../../app/run-worker-slot.ts');
  const logger = createFileLogger({
    path: join(resolveFlotillaPaths(repoRoot).logsDir, `worker-${slot}.log`),
    level: config.logging.level,
  });
  // A slot that cannot start says why and exits: its worker starts it again a moment later.
  const startSlot = (slotOptions: Parameters<typeof runWorkerSlot>[0]) =>
    runWorkerSlot(slotOptions).catch((error: unknown) => {
      process.stderr.write(`flotilla worker: slot ${slot}: ${messageOf(error)}\n`);
      logger.close();
      return null;
    });
  // The worker was killed: nothing supervises this slot any more, and its heartbeat must lapse.
  process.once('disconnect', () => process.exit(1));
  const running = await startSlot({
    repoRoot,
    config,
    env: process.env,
    logger,
    workerID,
    slot,
    onLost: (reason) => {
      logger.error('worker slot stops: heartbeat lost', { reason });
      process.stderr.write(`flotilla worker: slot ${slot} stops: ${reason}\n`);
      process.exit(1);
    },
  });
  if (running === null) process.exit(1);
  process.send?.({ ready: running.executorID });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.stop();
  logger.close();
  process.disconnect?.();
}

/** The worker: one process per slot, restarted when it stops; the first line says when all take runs. */
async function superviseSlots(repoRoot: string, slots: number): Promise<void> {
  const workerID = `${hostname()}-${process.pid}-${randomUUID().slice(0, 6)}`;
  const script = process.argv[1];
  if (script === undefined)
    throw new CliError('flotilla worker: cannot find its own entry point', { exitCode: 1 });
  let stopping = false;
  const children = new Map<number, ChildProcess>();
  const ready = new Set<number>();
  let announced = false;
  const start = (slot: number) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, script, 'worker', '--slot', String(slot), '--worker-id', workerID],
      { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    children.set(slot, child);
    child.on('message', (message) => {
      if (typeof message !== 'object' || message === null || !('ready' in message)) return;
      ready.add(slot);
      if (!announced && ready.size === slots) {
        announced = true;
        process.stdout.write(`flotilla worker ${workerID}: ${slots} slot(s) taking runs\n`);
      }
    });
    child.on('exit', (code, signal) => {
      children.delete(slot);
      if (stopping) return;
      process.stderr.write(`flotilla worker: slot ${slot} stopped (${signal ?? code}); restarting it\n`);
      setTimeout(() => {
        if (!stopping) start(slot);
      }, 1000);
    });
    child.on('error', (error) =>
      process.stderr.write(`flotilla worker: slot ${slot}: ${messageOf(error)}\n`),
    );
  };
  for (let slot = 0; slot < slots; slot += 1) start(slot);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  stopping = true;
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}
