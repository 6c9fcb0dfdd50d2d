import type { Command } from 'commander';
import { CliError } from '../support/cli-error.ts';
import { requireLocalTracker } from '../support/require-local-tracker.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla serve [--listen addr]`: the HTTP API (src/api/README.md) without the engine, over
 * `.flotilla/flotilla.db` (on GitHub: read-only over the provider's items, `serve-provider-read-only.ts`). Actions write the tracker as the CLI does, so a running `flotilla run` picks
 * them up at its next poll. Stops on SIGINT/SIGTERM.
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API on 127.0.0.1:7070 (another address needs FLOTILLA_SERVE_TOKEN)')
    .option('--listen <addr>', 'host:port to listen on (port 0: any free port)', '127.0.0.1:7070')
    .action(
      runCliAction('serve', async (options: { listen: string }) => {
        const { parseListenAddress } = await import('../../api/parse-listen-address.ts');
        let address: ReturnType<typeof parseListenAddress>;
        try {
          address = parseListenAddress(options.listen);
        } catch (error) {
          throw new CliError((error as Error).message, { exitCode: 2 });
        }
        const token = process.env.FLOTILLA_SERVE_TOKEN || undefined;
        if (!address.loopback && token === undefined) {
          throw new CliError(
            `refusing to listen on ${address.host}: a non-loopback address needs FLOTILLA_SERVE_TOKEN set (clients send Authorization: Bearer <token>)`,
            { exitCode: 2 },
          );
        }
        await withCliContext(async (context) => {
          const refusal = context.provider.refusal('serve');
          if (refusal !== undefined) throw new CliError(refusal, { exitCode: 2 });
          if (!context.provider.tracksLocally) {
            const { serveProviderReadOnly } = await import('../support/serve-provider-read-only.ts');
            return serveProviderReadOnly(context, address, token);
          }
          const tracker = await requireLocalTracker(context, 'serve');
          const { createApiApp } = await import('../../api/create-api-app.ts');
          const { createEventHub } = await import('../../api/create-event-hub.ts');
          const { startApiServer } = await import('../../api/start-api-server.ts');
          const { readHumanAuthor } = await import('../support/read-human-author.ts');
          const { watchTrackerChanges } = await import('../../api/watch-tracker-changes.ts');
          const events = createEventHub();
          // No engine here: changes other processes make to the tracker become events for the dashboard.
          const watch = watchTrackerChanges(tracker, context.history, events);
          const app = createApiApp({
            config: context.config,
            tracker,
            provider: await context.provider.open(),
            history: context.history,
            events,
            readAuthor: () => readHumanAuthor(context.repoRoot),
            repoRoot: context.repoRoot,
            paths: context.paths,
            ...(token === undefined ? {} : { token }),
          });
          const server = await startApiServer(app, address, { tokenSet: token !== undefined });
          process.stdout.write(
            `flotilla dashboard on ${server.url}/ · API ${server.url}/api (OpenAPI: ${server.url}/api/openapi.json)\n`,
          );
          await new Promise<void>((resolve) => {
            process.once('SIGINT', resolve);
            process.once('SIGTERM', resolve);
          });
          watch.stop();
          await server.close();
        });
      }),
    );
}
