import type { Command } from 'commander';
import { CliError } from '../support/cli-error.ts';
import { findRepoRoot } from '../support/find-repo-root.ts';
import { formatTable } from '../support/format-table.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { writeJson } from '../support/write-json.ts';

/** Seconds since `iso`, for humans (`4s ago`). */
function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  return seconds < 120 ? `${seconds}s ago` : `${Math.round(seconds / 60)}m ago`;
}

/**
 * `flotilla workers [--json]` (issue #33): the cluster's workers (id, host, slots, runs in progress, last
 * heartbeat, alive or dead), the runs waiting on the queue and the controller that leads, read from the
 * cluster's PostgreSQL (config `cluster.postgres`). Works on any machine of the cluster; changes nothing.
 */
export function registerWorkersCommand(program: Command): void {
  program
    .command('workers')
    .description(
      'the cluster\'s workers, the run queue\'s depth and the leading controller (config "cluster")',
    )
    .option('--json', 'print JSON')
    .action(
      runCliAction('workers', async (options: { json?: boolean }) => {
        const repoRoot = await findRepoRoot(process.cwd());
        if (repoRoot === null) throw new CliError('not inside a git repository', { exitCode: 2 });
        const { loadConfig } = await import('../../config/load-config.ts');
        const loaded = await loadConfig(repoRoot);
        if (!loaded.ok) throw new CliError(loaded.errors.join('\n'), { exitCode: 2 });
        const cluster = loaded.config.cluster;
        if (cluster === undefined)
          throw new CliError(
            'flotilla.config.json has no "cluster" section: one machine has no workers (set "cluster": { "postgres": "$FLOTILLA_DATABASE_URL" })',
            { exitCode: 2 },
          );
        const { resolveClusterDatabaseUrl } = await import('../../cluster/resolve-cluster-database-url.ts');
        const resolved = resolveClusterDatabaseUrl(cluster.postgres, process.env);
        if (!resolved.ok) throw new CliError(resolved.problem, { exitCode: 2 });
        const { readClusterStatus } = await import('../../cluster/read-cluster-status.ts');
        let status: Awaited<ReturnType<typeof readClusterStatus>>;
        try {
          status = await readClusterStatus(resolved.url);
        } catch (error) {
          throw new CliError(
            `could not read the cluster from PostgreSQL at $${resolved.variable}: ${error instanceof Error ? error.message : error}`,
            { exitCode: 1 },
          );
        }
        if (options.json) {
          writeJson(status);
          return;
        }
        const now = Date.now();
        const controller =
          status.controller === null
            ? 'no controller leads'
            : `controller ${status.controller.holder} leads (lease token ${status.controller.token})`;
        process.stdout.write(`${controller}; ${status.queued} run(s) queued\n`);
        if (status.workers.length === 0) {
          process.stdout.write('no workers (start one with `flotilla worker --slots N` in a clone)\n');
          return;
        }
        process.stdout.write(
          formatTable(
            ['WORKER', 'HOST', 'SLOTS', 'RUNNING', 'HEARTBEAT', 'STATE'],
            status.workers.map((worker) => [
              worker.id,
              worker.host,
              String(worker.slots),
              String(worker.runsInProgress),
              ago(worker.lastHeartbeat, now),
              worker.alive ? 'alive' : 'dead',
            ]),
          ),
        );
      }),
    );
}
