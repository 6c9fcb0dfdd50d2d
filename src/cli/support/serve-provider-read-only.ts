import { createEventHub } from '../../api/create-event-hub.ts';
import { createProviderApiApp } from '../../api/create-provider-api-app.ts';
import type { ListenAddress } from '../../api/parse-listen-address.ts';
import { startApiServer } from '../../api/start-api-server.ts';
import { watchProviderItems } from '../../api/watch-provider-items.ts';
import { CliError } from './cli-error.ts';
import { isControlPlaneRunning } from './is-control-plane-running.ts';
import type { CliContext } from './open-cli-context.ts';

/**
 * `flotilla serve` on a provider without a local tracker (GitHub): the API and the web dashboard over the
 * provider's open items and revisions, read at the configured work-item poll interval (stretched by the
 * quota's factor), with runs and budget from `.flotilla/flotilla.db`; comment, dispatch and answer go through
 * the provider (createProviderApiApp), a review answers 409 naming `flotilla review`, the engine's actions
 * `flotilla run --serve`. The first read must succeed (a wrong token or an
 * unreachable GitHub is exit 1 before anything listens). Stops on SIGINT/SIGTERM.
 */
export async function serveProviderReadOnly(
  context: CliContext,
  address: ListenAddress,
  token: string | undefined,
): Promise<void> {
  const provider = await context.provider.open();
  const events = createEventHub();
  const watch = watchProviderItems(provider, events, context.config.pollIntervals.workItems * 1000, (error) =>
    process.stderr.write(
      `flotilla serve: reading ${context.provider.name} failed (${error instanceof Error ? error.message : String(error)}); the last read stays shown\n`,
    ),
  );
  try {
    await watch.refresh();
  } catch (error) {
    watch.stop();
    throw new CliError(
      `flotilla serve: cannot read the work items from ${context.provider.name}: ${error instanceof Error ? error.message : String(error)}`,
      { exitCode: 1 },
    );
  }
  const { quota } = provider;
  const app = createProviderApiApp({
    config: context.config,
    providerName: context.provider.name,
    provider: { ...provider, ...(quota !== undefined && { quota: () => quota() }) },
    watch,
    history: context.history,
    events,
    isEngineRunning: () => isControlPlaneRunning(context.paths.stateDir),
    readAuthor: async () => {
      const { readHumanAuthor } = await import('./read-human-author.ts');
      return readHumanAuthor(context.repoRoot);
    },
    ...(token === undefined ? {} : { token }),
  });
  const server = await startApiServer(app, address, { tokenSet: token !== undefined });
  process.stdout.write(
    `flotilla dashboard on ${server.url}/ (${context.provider.name}, no engine) · API ${server.url}/api (OpenAPI: ${server.url}/api/openapi.json)\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  watch.stop();
  await server.close();
}
