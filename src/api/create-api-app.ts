import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { readWorkItemDetails } from '../cli/support/read-work-item-details.ts';
import type { FlotillaConfig } from '../config/index.ts';
import { WORK_ITEM_STATUSES } from '../domain/index.ts';
import type { Provider } from '../providers/types.ts';
import type { EngineStatePersistence, SqliteTracker } from '../storage/index.ts';
import type { TrackerQuota } from '../tui/view-model/build-quota-summary.ts';
import { createApiBase, serveOpenApiDocument } from './create-api-base.ts';
import type { EventHub } from './create-event-hub.ts';
import { registerDashboardReadRoutes } from './register-dashboard-read-routes.ts';
import { type ApiEngine, registerEngineActionRoutes } from './register-engine-action-routes.ts';
import { registerHistoryRoutes } from './register-history-routes.ts';
import { registerMergeQueueRoute } from './register-merge-queue-route.ts';
import { registerProposalRoutes } from './register-proposal-routes.ts';
import { registerReviewRoutes } from './register-review-routes.ts';
import { registerStatusRoute } from './register-status-route.ts';
import { registerTrackerActionRoutes } from './register-tracker-action-routes.ts';
import { registerWebAppRoutes } from './register-web-app-routes.ts';
import { registerEventsRoute } from './stream-hub-events.ts';

/** What the routes read and write; the composition root (src/cli/commands/serve-command.ts) builds it. */
export interface ApiDeps {
  config: FlotillaConfig;
  /** The local tracker, for the reads only it answers (closed items, labels, history, diffs). */
  tracker: SqliteTracker;
  /** The same tracker as a provider: the writes go through the contract (src/providers/types.ts). */
  provider: Provider;
  history: EngineStatePersistence;
  events: EventHub;
  /** The author of comments and answers posted through the API (the git author, as the CLI uses). */
  readAuthor(): Promise<string>;
  /** Required on every request when set (`FLOTILLA_SERVE_TOKEN`). */
  token?: string;
  now?: () => number;
  /** The repository (diffs of revisions); without it `GET /api/work-items/:id/diff` is 409. */
  repoRoot?: string;
  /** The built web dashboard (default: `dist/web/`; tests build their own). */
  webRoot?: string;
  /** The engine of `flotilla run --serve`: cancel, retry, unblock and merge go through it (else 409). */
  engine?: ApiEngine;
  /** `.flotilla/` and `.flotilla/logs/`: whether a `flotilla run` is up (reviews), where checks logs live. */
  paths: { stateDir: string; logsDir: string };
  /** The provider's name and quota for `GET /api/status`; default the configured provider's name (no quota). */
  providerStatus?: { name: string; quota?: (() => TrackerQuota | null) | undefined };
}

const ErrorSchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
  })
  .openapi('Error');
const IdParams = z.object({
  id: z
    .string()
    .regex(/^#?[1-9]\d*$/, 'a work item id such as 12')
    .transform((id) => id.replace(/^#/, ''))
    .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
});
const AnyJson = z.unknown().openapi({ type: 'object' });
const errors = {
  400: { description: 'invalid request', content: { 'application/json': { schema: ErrorSchema } } },
  401: {
    description: 'missing or wrong bearer token',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  404: { description: 'no such item', content: { 'application/json': { schema: ErrorSchema } } },
  409: {
    description: 'the state does not allow it',
    content: { 'application/json': { schema: ErrorSchema } },
  },
} as const;
const ok = (description: string) => ({
  200: { description, content: { 'application/json': { schema: AnyJson } } },
  ...errors,
});

/**
 * The HTTP API (src/api/README.md): JSON reads and human actions over the same tracker and history the CLI
 * uses, calling the CLI's own cores, plus `/api/events` (SSE) and `/api/openapi.json`.
 */
export function createApiApp(deps: ApiDeps): OpenAPIHono {
  const now = deps.now ?? Date.now;
  const app = createApiBase({ token: deps.token });

  const { tracker, provider, history } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/work-items',
      request: {
        query: z.object({
          state: z.enum(['open', 'closed', 'all']).optional(),
          status: z
            .string()
            .optional()
            .transform((value) => (value === undefined ? [] : value.split(',').map((s) => s.trim())))
            .pipe(z.array(z.enum(WORK_ITEM_STATUSES))),
          label: z.string().optional(),
        }),
      },
      responses: ok('work items, oldest first (as `flotilla work list --json`)'),
    }),
    (c) => {
      const query = c.req.valid('query');
      const state = query.state ?? (query.status.length > 0 ? 'all' : 'open');
      const items = tracker.workItems
        .listWorkItems({ includeClosed: state !== 'open' })
        .filter((item) => state !== 'closed' || item.status === 'closed')
        .filter((item) => query.status.length === 0 || query.status.includes(item.status))
        .filter(
          (item) =>
            query.label === undefined || tracker.workItems.getWorkItemLabels(item.id).includes(query.label),
        );
      return c.json(items, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/work-items/{id}',
      request: { params: IdParams },
      responses: ok(
        'one work item with body, labels, comments and revision (as `flotilla work show --json`)',
      ),
    }),
    async (c) =>
      c.json(
        await readWorkItemDetails(provider, c.req.valid('param').id, {
          taskContext: history.taskContext,
          notes: history.notes,
        }),
        200,
      ),
  );

  registerHistoryRoutes(app, { config: deps.config, history, now });

  registerTrackerActionRoutes(app, { provider, readAuthor: deps.readAuthor });
  registerProposalRoutes(app, { ...deps, engine: deps.engine !== undefined });

  registerEventsRoute(app, deps.events);
  registerEngineActionRoutes(app, deps.engine);
  registerDashboardReadRoutes(app, deps);
  registerReviewRoutes(app, deps);
  registerMergeQueueRoute(app, { provider, automatic: deps.config.merge.queue });
  registerStatusRoute(app, {
    provider: deps.providerStatus?.name ?? deps.config.provider,
    engine: deps.engine !== undefined,
    quota: deps.providerStatus?.quota,
    now,
  });
  registerWebAppRoutes(app, deps.webRoot);

  serveOpenApiDocument(app);
  return app;
}
