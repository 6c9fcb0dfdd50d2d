import type { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { createApiApp } from '../../api/create-api-app.ts';
import { createEngineApiApp } from '../../api/create-engine-api-app.ts';
import { createEventHub } from '../../api/create-event-hub.ts';
import type { ListenAddress } from '../../api/parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from '../../api/start-api-server.ts';
import type { ControlPlane } from '../../app/create-control-plane.ts';
import { type FlotillaConfig, resolveFlotillaPaths } from '../../config/index.ts';
import { readHumanAuthor } from './read-human-author.ts';

export interface RunApiOptions {
  controlPlane: ControlPlane;
  config: FlotillaConfig;
  repoRoot: string;
  address: ListenAddress;
  /** `FLOTILLA_SERVE_TOKEN`; required for a non-loopback address (startApiServer refuses otherwise). */
  token: string | undefined;
  /** Routes served beside `/api` and outside its bearer token (GitHub's webhook deliveries sign instead). */
  extraRoutes?: Hono;
}

/**
 * `flotilla run --serve`: the API in the engine's own process. Every engine event goes into the hub
 * (`/api/events` is live), the actions that need the engine go through it (register-engine-action-routes),
 * and on the local provider the tracker routes read the control plane's own tracker and history.
 */
export async function startRunApi(options: RunApiOptions): Promise<RunningApiServer> {
  const { controlPlane, token } = options;
  const events = createEventHub();
  controlPlane.engine.onEvent((event) => events.publish(event.type, event));
  const tracker = controlPlane.provider.localTracker;
  const { quota } = controlPlane.provider;
  const providerStatus = {
    name: options.config.provider,
    quota: quota === undefined ? undefined : () => quota(),
  };
  const api =
    tracker === undefined
      ? createEngineApiApp({ events, engine: controlPlane.engine, token, provider: providerStatus })
      : createApiApp({
          config: options.config,
          tracker,
          provider: controlPlane.provider,
          history: controlPlane.persistence,
          events,
          readAuthor: () => readHumanAuthor(options.repoRoot),
          engine: controlPlane.engine,
          paths: resolveFlotillaPaths(options.repoRoot),
          providerStatus,
          // The web dashboard and its diffs, as under `flotilla serve`: with the engine, its actions work.
          repoRoot: options.repoRoot,
          ...(token === undefined ? {} : { token }),
        });
  return await startApiServer(buildRunApiRoot(api, options.extraRoutes), options.address, {
    tokenSet: token !== undefined,
  });
}

/**
 * `extraRoutes` first, then the API: a route outside `/api` answers before the API's middleware (bearer
 * token, JSON-only, 256 KiB limit) could see its request; everything else falls through to the API.
 */
export function buildRunApiRoot(api: OpenAPIHono, extraRoutes: Hono | undefined): Hono {
  const root = new Hono();
  if (extraRoutes !== undefined) root.route('/', extraRoutes);
  root.route('/', api);
  return root;
}
