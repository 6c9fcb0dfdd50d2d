import { join } from 'node:path';
import type { Command } from 'commander';
import { DEMO_PROVIDERS, isDemoProvider } from '../../app/demo/demo-providers.ts';
import { DEMO_RUNTIMES, isDemoRuntime } from '../../app/demo/demo-runtimes.ts';
import { silentLogger } from '../../logging/logger.ts';
import { resolveFlotillaPaths } from '../../shared/resolve-flotilla-paths.ts';
import { isInteractiveTerminal } from '../support/is-interactive-terminal.ts';
import { loadDashboard } from '../support/load-dashboard.ts';

/**
 * `flotilla demo [--runtime <name>] [--provider local|github] [--keep] [--dashboard]`: the whole loop in a
 * throwaway repository, every role on the chosen runtime (each runtime's descriptor says how: against the
 * scripted model server, or around the scripted demo agent CLI), on the local tracker or the built-in fake
 * GitHub; with --dashboard, watched and steered from the dashboard until the user quits.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the whole loop (plan → implement → review → approve) in a throwaway repo on a real agent runtime (the Claude Agent SDK by default, or --runtime codex, gemini) against the built-in scripted model server, or (--runtime cli) on the CLI runtime with a scripted agent CLI; no network, no API key',
    )
    .option(
      '--runtime <runtime>',
      `every role's runtime: ${DEMO_RUNTIMES.join(', ')} (codex, gemini: their real binaries, a dummy key; cli: a scripted agent CLI)`,
      DEMO_RUNTIMES[0],
    )
    .option(
      '--provider <provider>',
      'local (SQLite tracker, branches, npm test as checks) or github (the built-in fake GitHub on 127.0.0.1: issues, pull requests, a CI; no account)',
      DEMO_PROVIDERS[0],
    )
    .option('--no-webhooks', 'with --provider github: no webhook deliveries, polls only (to compare)')
    .option('--keep', 'keep the demo repository (and transcripts) to inspect afterwards')
    .option('--dashboard', 'watch and steer the demo from the dashboard (needs a terminal); q quits')
    .action(
      async (options: {
        runtime: string;
        provider: string;
        keep?: boolean;
        dashboard?: boolean;
        webhooks: boolean;
      }) => {
        const runtime = options.runtime;
        const provider = options.provider;
        if (!isDemoProvider(provider)) {
          process.stderr.write(
            `flotilla demo: unknown --provider '${provider}'; expected one of: ${DEMO_PROVIDERS.join(', ')}\n`,
          );
          process.exitCode = 2;
          return;
        }
        if (!isDemoRuntime(runtime)) {
          process.stderr.write(
            `flotilla demo: unknown --runtime '${runtime}'; expected one of: ${DEMO_RUNTIMES.join(', ')}\n`,
          );
          process.exitCode = 2;
          return;
        }
        if (options.dashboard && !isInteractiveTerminal()) {
          process.stderr.write(
            'flotilla demo: --dashboard needs a terminal (stdin and stdout must be TTYs); run it without --dashboard for progress lines\n',
          );
          process.exitCode = 2;
          return;
        }
        // Loaded on demand (the other commands start faster without the SDK and Ink), the dashboard before
        // anything starts processes: it changes the environment while it loads.
        const runDashboard = options.dashboard ? await loadDashboard() : null;
        const { runDemo } = await import('../../app/demo/run-demo.ts');
        const outcome = await runDemo({
          keep: options.keep ?? false,
          runtime,
          provider,
          webhooks: options.webhooks,
          print: (line) => process.stdout.write(`${line}\n`),
          logger: silentLogger,
          ...(runDashboard !== null
            ? {
                watch: (controlPlane, repoRoot) =>
                  runDashboard({
                    controlPlane,
                    logger: silentLogger,
                    repoRoot,
                    logFilePath: join(resolveFlotillaPaths(repoRoot).logsDir, 'flotilla.log'),
                    commandName: 'flotilla demo',
                    stop: () => controlPlane.engine.stop(),
                  }),
              }
            : {}),
        });
        if (!outcome.ok) {
          process.stderr.write('flotilla demo: the demo did not reach the expected end state (see above)\n');
          process.exitCode = 1;
        }
      },
    );
}
