import { join } from 'node:path';
import type { RunningApiServer } from '../../api/start-api-server.ts';
import type { ControlPlane } from '../../app/create-control-plane.ts';
import type { Logger } from '../../logging/logger.ts';
import { messageOf } from '../../shared/message-of.ts';
import { resolveFlotillaPaths } from '../../shared/resolve-flotilla-paths.ts';
import type { RunPreconditions } from './check-run-preconditions.ts';
import type { RunWebhooks } from './open-provider-webhooks.ts';

/** A started `flotilla run`: its control plane (engine not started yet), logger and, with `--serve`, API. */
export interface StartedRun {
  controlPlane: ControlPlane;
  logger: Logger & { close(): void };
  apiServer: RunningApiServer | null;
  logFilePath: string;
  stateDir: string;
  /** The lines to say first: what recovery did, where the API serves; null for each when there is nothing. */
  recoveredMessage: string | null;
  apiMessage: string | null;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Opens the log file, the provider's webhooks (with `--serve`), the control plane and the API. Null when
 * one of them could not start (exit 1, the reason on stderr; what had started is closed again).
 */
export async function startRunControlPlane(run: RunPreconditions, json: boolean): Promise<StartedRun | null> {
  const { repoRoot, config, serveAddress } = run;
  const { createControlPlane } = await import('../../app/create-control-plane.ts');
  const { createFileLogger } = await import('../../logging/create-file-logger.ts');
  const paths = resolveFlotillaPaths(repoRoot);
  const logFilePath = join(paths.logsDir, 'flotilla.log');
  const logger = createFileLogger({ path: logFilePath, level: config.logging.level });
  // The tracker's webhooks (GitHub: POST /webhooks/github) come with `--serve`, and only with their secret:
  // without it the route is not mounted and the polls alone go on.
  const webhooks =
    serveAddress === null
      ? null
      : await (await import('./open-provider-webhooks.ts')).openProviderWebhooks(config, process.env, logger);
  let controlPlane: ControlPlane;
  try {
    controlPlane = await createControlPlane({
      repoRoot,
      config,
      logger,
      ...(webhooks?.receiver && { changeFeed: webhooks.receiver }),
      // Cluster mode: another controller leads; this one waits, and takes over when its lease lapses.
      onStandby: (leader) =>
        json
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
    return null;
  }
  const apiServer = await startApi(run, controlPlane, webhooks);
  if (apiServer === undefined) {
    logger.close();
    return null;
  }
  return {
    controlPlane,
    logger,
    apiServer,
    logFilePath,
    stateDir: paths.stateDir,
    recoveredMessage: describeRecovery(controlPlane.recovered),
    apiMessage:
      apiServer === null
        ? null
        : `flotilla API on ${apiServer.url}/api (OpenAPI: ${apiServer.url}/api/openapi.json)${
            webhooks === null ? '' : `; ${webhooks.describe(apiServer.url)}`
          }`,
  };
}

/** `--serve`: the API beside the control plane; null without it, undefined when it could not start (exit 1). */
async function startApi(
  run: RunPreconditions,
  controlPlane: ControlPlane,
  webhooks: RunWebhooks | null,
): Promise<RunningApiServer | null | undefined> {
  if (run.serveAddress === null) return null;
  const { startRunApi } = await import('./start-run-api.ts');
  try {
    return await startRunApi({
      controlPlane,
      config: run.config,
      repoRoot: run.repoRoot,
      address: run.serveAddress,
      token: run.serveToken,
      ...(webhooks?.routes && { extraRoutes: webhooks.routes }),
    });
  } catch (error) {
    err(`flotilla run: could not serve the API: ${messageOf(error)}`);
    await controlPlane.close();
    process.exitCode = 1;
    return undefined;
  }
}

/** What crash recovery did at start, or null when it found nothing to do. */
function describeRecovery(recovered: ControlPlane['recovered']): string | null {
  return recovered.interruptedRuns > 0 ||
    recovered.reapedWorktrees.length > 0 ||
    recovered.reapedProcesses > 0
    ? `recovered: ${recovered.interruptedRuns} interrupted run(s) recorded as failed, ${recovered.reapedWorktrees.length} stale worktree(s) removed, ${recovered.reapedProcesses} orphaned agent or checks process(es) ended`
    : null;
}
