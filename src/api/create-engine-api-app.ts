import type { OpenAPIHono } from '@hono/zod-openapi';
import type { TrackerQuota } from '../tui/view-model/build-quota-summary.ts';
import { createApiBase, serveOpenApiDocument } from './create-api-base.ts';
import type { EventHub } from './create-event-hub.ts';
import { type ApiEngine, registerEngineActionRoutes } from './register-engine-action-routes.ts';
import { registerStatusRoute } from './register-status-route.ts';
import { registerEventsRoute } from './stream-hub-events.ts';

/**
 * The API of `flotilla run --serve` on a provider without a local tracker (GitHub): the engine's events
 * (`/api/events`), its actions and the OpenAPI document; the tracker's routes need `.flotilla/flotilla.db`.
 */
export function createEngineApiApp(deps: {
  events: EventHub;
  engine: ApiEngine;
  token?: string | undefined;
  /** The provider's name and rate-limit budget, for `GET /api/status`. */
  provider: { name: string; quota?: (() => TrackerQuota | null) | undefined };
}): OpenAPIHono {
  const app = createApiBase({ token: deps.token });
  registerEventsRoute(app, deps.events);
  registerEngineActionRoutes(app, deps.engine);
  registerStatusRoute(app, { provider: deps.provider.name, engine: true, quota: deps.provider.quota });
  serveOpenApiDocument(app);
  return app;
}
