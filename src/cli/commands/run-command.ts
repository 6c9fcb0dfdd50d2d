import { join } from 'node:path';
import type { Command } from 'commander';
import type { ListenAddress } from '../../api/parse-listen-address.ts';
import type { RunningApiServer } from '../../api/start-api-server.ts';
import type { ControlPlane } from '../../app/create-control-plane.ts';
import { checkModelCredentials } from '../../app/find-model-credential.ts';
import { loadConfiguredScenario } from '../../app/load-configured-scenario.ts';
import { buildSeenSnapshot } from '../../app/progress/build-seen-snapshot.ts';
import { createQuotaProgress } from '../../app/progress/create-quota-progress.ts';
import { createSeenSnapshotFile } from '../../app/progress/create-seen-snapshot-file.ts';
import { createSpendTally } from '../../app/progress/create-spend-tally.ts';
import { describeEvent } from '../../app/progress/describe-event.ts';
import { describeIdleSummary } from '../../app/progress/describe-idle-summary.ts';
import { describeStartupEvents, type StartupEvent } from '../../app/progress/describe-startup-events.ts';
import { waitUntilIdle } from '../../app/wait-until-idle.ts';
import {
  SANDBOX_OFF_NOTICE,
  SANDBOX_UNAVAILABLE,
  SANDBOX_UNAVAILABLE_MACOS,
} from '../../sandbox/sandbox-types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { resolveFlotillaPaths } from '../../shared/resolve-flotilla-paths.ts';
import { findRepoRoot } from '../support/find-repo-root.ts';
import { isInteractiveTerminal } from '../support/is-interactive-terminal.ts';
import { loadDashboard } from '../support/load-dashboard.ts';
import { watchClosedOutput } from '../support/watch-closed-output.ts';

interface RunOptions {
  headless?: boolean;
  untilIdle?: boolean;
  json?: boolean;
  /** `--serve` alone: true (the default address); `--serve <addr>`: that address. */
  serve?: boolean | string;
}

/** How often the headless progress looks at the tracker API's budget. */
const QUOTA_PROGRESS_INTERVAL_MS = 2000;

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

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
      const repoRoot = await findRepoRoot(process.cwd());
      if (!repoRoot) {
        err('flotilla run: not inside a git repository (run it in your project, or `git init` first)');
        process.exitCode = 2;
        return;
      }
      // `--serve`: a bad address, or a non-loopback one without a token, stops here before anything starts.
      let serveAddress: ListenAddress | null = null;
      const serveToken = process.env.FLOTILLA_SERVE_TOKEN || undefined;
      if (options.serve !== undefined && options.serve !== false) {
        const { parseListenAddress, DEFAULT_LISTEN_ADDRESS } = await import(
          '../../api/parse-listen-address.ts'
        );
        try {
          serveAddress = parseListenAddress(options.serve === true ? DEFAULT_LISTEN_ADDRESS : options.serve);
        } catch (error) {
          err(`flotilla run: ${messageOf(error)}`);
          process.exitCode = 2;
          return;
        }
        if (!serveAddress.loopback && serveToken === undefined) {
          err(
            `flotilla run: refusing to serve on ${serveAddress.host}: a non-loopback address needs FLOTILLA_SERVE_TOKEN set (clients send Authorization: Bearer <token>)`,
          );
          process.exitCode = 2;
          return;
        }
      }
      // Loaded here, not at start-up: the config schema (zod) and pino cost every other command ~0.1 s.
      const { loadConfig } = await import('../../config/load-config.ts');
      const loaded = await loadConfig(repoRoot);
      if (!loaded.ok) {
        for (const line of loaded.errors) err(line);
        err('flotilla run: fix flotilla.config.json (see `flotilla init` for a starting point)');
        process.exitCode = 2;
        return;
      }
      // Problems decidable from the config and the environment stop here (exit 2), before any agent is
      // started: an invalid scenario, or roles that would each fail with the CLI's "Not logged in".
      const scenario = await loadConfiguredScenario(repoRoot, loaded.config);
      if (scenario.kind === 'invalid') {
        for (const line of scenario.errors) err(line);
        err('flotilla run: fix the scripted scenario (format: src/model-server/README.md in Flotilla)');
        process.exitCode = 2;
        return;
      }
      if (reportMissingCredentials(loaded.config, err)) {
        process.exitCode = 2;
        return;
      }
      // Every agent runs in the OS sandbox: refused here (exit 2) when it cannot start, unless turned off.
      if (loaded.config.sandbox.mode === 'on') {
        const { checkSandboxAvailability } = await import('../../sandbox/check-sandbox-availability.ts');
        const probe = checkSandboxAvailability();
        if (!probe.available) {
          err(
            `flotilla run: ${process.platform === 'darwin' ? SANDBOX_UNAVAILABLE_MACOS : SANDBOX_UNAVAILABLE}`,
          );
          for (const line of probe.problems) err(`  - ${line}`);
          process.exitCode = 2;
          return;
        }
      } else {
        err(`flotilla run: WARNING ${SANDBOX_OFF_NOTICE}`);
      }
      const useDashboard =
        !options.headless && !options.json && !options.untilIdle && isInteractiveTerminal();
      // Loaded on demand (the other commands start faster without the SDK and Ink), the dashboard before
      // anything starts processes: it changes the environment while it loads.
      const runDashboard = useDashboard ? await loadDashboard() : null;
      const { createControlPlane } = await import('../../app/create-control-plane.ts');
      const { createFileLogger } = await import('../../logging/create-file-logger.ts');
      const paths = resolveFlotillaPaths(repoRoot);
      const logger = createFileLogger({
        path: join(paths.logsDir, 'flotilla.log'),
        level: loaded.config.logging.level,
      });
      // The tracker's webhooks (GitHub: POST /webhooks/github) come with `--serve`, and only with their secret:
      // without it the route is not mounted and the polls alone go on.
      const webhooks =
        serveAddress === null
          ? null
          : await (await import('../support/open-provider-webhooks.ts')).openProviderWebhooks(
              loaded.config,
              process.env,
              logger,
            );
      let controlPlane: ControlPlane;
      try {
        controlPlane = await createControlPlane({
          repoRoot,
          config: loaded.config,
          logger,
          ...(webhooks?.receiver && { changeFeed: webhooks.receiver }),
          // Cluster mode: another controller leads; this one waits, and takes over when its lease lapses.
          onStandby: (leader) =>
            options.json
              ? out(JSON.stringify({ type: 'standby', ...leader }))
              : out(
                  `flotilla run: standby — controller ${leader.holder} leads (lease token ${leader.token}); taking over if it stops`,
                ),
          // Fail closed: a controller that lost its lease stops at once; its writes are already refused.
          onDeposed: (token) => {
            err(`flotilla run: lost the controller lease (token ${token}); stopping without further writes`);
            process.exit(1);
          },
        });
      } catch (error) {
        err(`flotilla run: ${messageOf(error)}`);
        logger.close();
        process.exitCode = 1;
        return;
      }
      const { engine, recovered } = controlPlane;
      let apiServer: RunningApiServer | null = null;
      if (serveAddress !== null) {
        const { startRunApi } = await import('../support/start-run-api.ts');
        try {
          apiServer = await startRunApi({
            controlPlane,
            config: loaded.config,
            repoRoot,
            address: serveAddress,
            token: serveToken,
            ...(webhooks?.routes && { extraRoutes: webhooks.routes }),
          });
        } catch (error) {
          err(`flotilla run: could not serve the API: ${messageOf(error)}`);
          await controlPlane.close();
          logger.close();
          process.exitCode = 1;
          return;
        }
      }
      const apiMessage =
        apiServer === null
          ? null
          : `flotilla API on ${apiServer.url}/api (OpenAPI: ${apiServer.url}/api/openapi.json)${
              webhooks === null ? '' : `; ${webhooks.describe(apiServer.url)}`
            }`;
      const recoveredMessage =
        recovered.interruptedRuns > 0 || recovered.reapedWorktrees.length > 0 || recovered.reapedProcesses > 0
          ? `recovered: ${recovered.interruptedRuns} interrupted run(s) recorded as failed, ${recovered.reapedWorktrees.length} stale worktree(s) removed, ${recovered.reapedProcesses} orphaned agent or checks process(es) ended`
          : null;
      const logFilePath = join(paths.logsDir, 'flotilla.log');
      if (runDashboard !== null) {
        try {
          await runDashboard({
            controlPlane,
            logger,
            repoRoot,
            logFilePath,
            initialMessage:
              [recoveredMessage, apiMessage].filter((line) => line !== null).join(' · ') || null,
            commandName: 'flotilla run',
          });
        } finally {
          await apiServer?.close();
          logger.close();
        }
        out(`flotilla stopped (logs: ${logFilePath})`);
        return;
      }
      const emit = (line: string, data?: object) =>
        options.json ? out(JSON.stringify(data ?? { message: line })) : out(line);
      if (recoveredMessage) emit(recoveredMessage, { type: 'recovered', ...recovered });
      if (apiServer !== null && apiMessage !== null)
        emit(apiMessage, { type: 'serving', url: apiServer.url });
      const clockNow = () => new Date().toISOString().slice(11, 19);
      // The first sync reports every item, revision and spec as new: it is held back and compared with what
      // the last run saw, so only changes since then get a line (JSON output keeps every event).
      const seenSnapshot = createSeenSnapshotFile(join(paths.stateDir, 'last-seen.json'));
      let startupEvents: StartupEvent[] | null = [];
      const spendTally = createSpendTally();
      engine.onEvent((event, state) => {
        spendTally.record(event, state);
        if (options.json) {
          out(JSON.stringify(event));
          return;
        }
        if (startupEvents !== null) {
          startupEvents.push({ event, state });
          return;
        }
        const line = describeEvent(event, state);
        if (line) out(`${clockNow()} ${line}`);
      });
      const flushStartupEvents = () => {
        if (startupEvents === null) return;
        const held = startupEvents;
        startupEvents = null;
        for (const line of describeStartupEvents(held, seenSnapshot.read())) out(`${clockNow()} ${line}`);
      };

      // The tracker API's budget (GitHub): a line when it is first known, when requests pause, when it runs low.
      const readQuota = controlPlane.provider.quota;
      const quotaProgress = createQuotaProgress();
      const quotaTimer =
        readQuota === undefined
          ? null
          : setInterval(() => {
              const quota = readQuota();
              const line = quotaProgress(quota, Date.now());
              if (line !== null)
                emit(`${new Date().toISOString().slice(11, 19)} ${line}`, {
                  type: 'quota',
                  message: line,
                  ...quota,
                });
            }, QUOTA_PROGRESS_INTERVAL_MS);
      quotaTimer?.unref();

      let stopRequested = false;
      let interrupts = 0;
      const onSignal = () => {
        interrupts += 1;
        if (interrupts > 1) {
          err('flotilla run: forced exit');
          process.exit(130);
        }
        stopRequested = true;
        err('flotilla run: stopping — cancelling runs and removing worktrees (Ctrl-C again to force)');
        void controlPlane.close();
      };
      // SIGHUP: the terminal or SSH session went away; stop as cleanly as on Ctrl-C.
      const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      for (const signal of stopSignals) process.on(signal, onSignal);
      // The reader of the progress lines went away (`flotilla run --headless | head -3`): nobody watches the
      // loop any more, so it stops as cleanly as on Ctrl-C, without a word (there is nowhere to say it).
      const closedOutput = watchClosedOutput(process.stdout, () => {
        stopRequested = true;
        void controlPlane.close();
      });

      try {
        await engine.start();
        flushStartupEvents();
        const leading =
          controlPlane.leaderToken === null
            ? ''
            : ` as the cluster's controller (lease token ${controlPlane.leaderToken})`;
        emit(`flotilla running in ${repoRoot}${leading} (logs: ${logFilePath})`, {
          type: 'started',
          repoRoot,
          ...(controlPlane.leaderToken !== null && { leaderToken: controlPlane.leaderToken }),
        });
        if (options.untilIdle) {
          const idle = await waitUntilIdle(controlPlane, () => stopRequested, {
            maxCheckRounds: loaded.config.maxCheckRounds,
            mergeQueue: loaded.config.merge.queue,
          });
          const summary = describeIdleSummary(engine.getState(), {
            idle,
            maxAttempts: loaded.config.scheduler.maxAttempts,
            spend: spendTally.describe(),
          });
          emit(summary.line, summary.data);
          process.exitCode = summary.exitCode;
        } else {
          await new Promise<void>((resolve) => {
            const check = setInterval(() => {
              if (stopRequested) {
                clearInterval(check);
                resolve();
              }
            }, 100);
          });
        }
      } finally {
        flushStartupEvents();
        if (quotaTimer !== null) clearInterval(quotaTimer);
        await apiServer?.close();
        await controlPlane.close();
        seenSnapshot.write(buildSeenSnapshot(engine.getState()));
        for (const signal of stopSignals) process.off(signal, onSignal);
        closedOutput.dispose();
        logger.close();
      }
    });
}

/**
 * `flotilla run`'s start-up check of the runtimes that take their model credential from the environment
 * (their descriptors' `credentials`): for each whose roles have none, what is missing and what to do — the
 * roles would each fail with the CLI's "Not logged in". True when something is missing.
 */
function reportMissingCredentials(
  config: Parameters<typeof checkModelCredentials>[0],
  report: (line: string) => void,
): boolean {
  const missing = checkModelCredentials(config, process.env).filter(
    (status) => status.roles.length > 0 && !status.credential.ok,
  );
  for (const { runtime, roles, credential } of missing) {
    report(
      `flotilla run: no model credentials for ${roles.join(', ')} (runtime '${runtime}'); agents would fail with "Not logged in"`,
    );
    for (const line of credential.ok ? [] : credential.advice) report(`  - ${line}`);
  }
  return missing.length > 0;
}
