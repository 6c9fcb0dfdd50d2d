import type { Command } from 'commander';
import { checkRunPreconditions } from '../support/check-run-preconditions.ts';
import { isInteractiveTerminal } from '../support/is-interactive-terminal.ts';
import { loadDashboard } from '../support/load-dashboard.ts';
import { runHeadlessProgress } from '../support/run-headless-progress.ts';
import { startRunControlPlane } from '../support/start-run-control-plane.ts';

interface RunOptions {
  headless?: boolean;
  untilIdle?: boolean;
  json?: boolean;
  /** `--serve` alone: true (the default address); `--serve <addr>`: that address. */
  serve?: boolean | string;
}

/**
 * `flotilla run [--headless] [--until-idle] [--json]`: starts the control plane in the current repository.
 * On a terminal it shows the dashboard (src/tui); otherwise — or with --headless, --json or --until-idle —
 * progress is one line per meaningful event on stdout (JSON lines with --json). Logs go to
 * `.flotilla/logs/flotilla.log`, never to the terminal. Ctrl-C stops gracefully (runs cancelled, worktrees
 * removed); a second Ctrl-C forces.
 */
export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description(
      'start the control plane in this repository (the dashboard on a terminal, progress lines otherwise)',
    )
    .option('--headless', 'line-oriented progress instead of the dashboard')
    .option(
      '--until-idle',
      'exit once no run is active or queued, no checks are pending and nothing is dispatchable',
    )
    .option('--json', 'progress as JSON lines (one event per line)')
    .option(
      '--serve [addr]',
      'also serve the HTTP API on addr, default 127.0.0.1:7070 (another address needs FLOTILLA_SERVE_TOKEN)',
    )
    .addHelpText(
      'after',
      `
Exit codes:
  0    stopped (Ctrl-C, SIGTERM) or, with --until-idle, idle with everything done
       (approved items waiting for you to merge count as done)
  1    --until-idle: errors were recorded, or work waits on a human (needs-refinement,
       blocked, red checks, a planner out of attempts); or the control plane could not start
       (e.g. another flotilla run holds the repository)
  2    not started: not in a git repository, an invalid flotilla.config.json or scenario,
       no model credentials, no OS sandbox
  130  a second Ctrl-C forced the exit`,
    )
    .action(async (options: RunOptions) => {
      const run = await checkRunPreconditions(options.serve);
      if (run === null) return;
      const useDashboard =
        !options.headless && !options.json && !options.untilIdle && isInteractiveTerminal();
      // Loaded on demand (the other commands start faster without the SDK and Ink), the dashboard before
      // anything starts processes: it changes the environment while it loads.
      const runDashboard = useDashboard ? await loadDashboard() : null;
      const started = await startRunControlPlane(run, options.json === true);
      if (started === null) return;
      if (runDashboard === null) {
        await runHeadlessProgress(started, {
          repoRoot: run.repoRoot,
          config: run.config,
          json: options.json === true,
          untilIdle: options.untilIdle === true,
        });
        return;
      }
      const { controlPlane, logger, apiServer, logFilePath } = started;
      try {
        await runDashboard({
          controlPlane,
          logger,
          repoRoot: run.repoRoot,
          logFilePath,
          initialMessage:
            [started.recoveredMessage, started.apiMessage].filter((line) => line !== null).join(' · ') ||
            null,
          commandName: 'flotilla run',
        });
      } finally {
        await apiServer?.close();
        logger.close();
      }
      process.stdout.write(`flotilla stopped (logs: ${logFilePath})\n`);
    });
}
