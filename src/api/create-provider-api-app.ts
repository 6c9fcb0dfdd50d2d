import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { FlotillaConfig } from '../config/index.ts';
import { buildChecksView, listOpenBlockers, WORK_ITEM_STATUSES } from '../domain/index.ts';
import type { Provider } from '../providers/types.ts';
import type { EngineStatePersistence } from '../storage/index.ts';
import type { TrackerQuota } from '../tui/view-model/build-quota-summary.ts';
import { ApiError } from './api-error.ts';
import { createApiBase, serveOpenApiDocument } from './create-api-base.ts';
import type { EventHub } from './create-event-hub.ts';
import { registerEngineActionRoutes } from './register-engine-action-routes.ts';
import { registerHistoryRoutes } from './register-history-routes.ts';
import { registerStatusRoute } from './register-status-route.ts';
import { registerTrackerActionRoutes } from './register-tracker-action-routes.ts';
import { registerWebAppRoutes } from './register-web-app-routes.ts';
import { registerEventsRoute } from './stream-hub-events.ts';
import type { ProviderItemsWatch } from './watch-provider-items.ts';

export interface ProviderApiDeps {
  config: FlotillaConfig;
  /** The configured provider's name (`github`); its tracker actions go through the contract. */
  providerName: string;
  provider: Pick<Provider, 'workItemReader' | 'workItemWriter' | 'revisionReader' | 'localAdmin'> & {
    quota?: () => TrackerQuota | null;
  };
  /** The author of comments and answers posted through the API (the git author, as the CLI uses). */
  readAuthor(): Promise<string>;
  watch: ProviderItemsWatch;
  history: EngineStatePersistence;
  events: EventHub;
  /** Whether a `flotilla run` holds the repository's run lock (the refusal says where to act instead). */
  isEngineRunning(): boolean;
  token?: string;
  webRoot?: string;
  now?: () => number;
}

const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});
const json = (description: string) => ({
  200: { description, content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } } },
  400: errorResponse('invalid request'),
  401: errorResponse('missing or wrong bearer token'),
  404: errorResponse('no such item'),
});
const IdParams = z.object({
  id: z
    .string()
    .regex(/^#?[1-9]\d*$/, 'a work item id such as 12')
    .transform((id) => id.replace(/^#/, ''))
    .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
});

/** The tracker actions this server leaves to the CLI, and the command that does each. */
const CLI_ONLY_ACTIONS = {
  review: 'flotilla review',
} as const;

/**
 * `flotilla serve` on a provider without a local tracker (GitHub). The work items and revisions come from
 * `watchProviderItems` (the provider's own listing reads, paced by its quota), an item's body and comments
 * from the provider when asked, runs and budget from `.flotilla/flotilla.db`, the quota line from the
 * provider. A human's tracker actions — comment, dispatch, answer — go through the provider contract as on
 * the local provider (registerTrackerActionRoutes), the lists read again after each; a review is refused with
 * 409 naming `flotilla review`, and the engine's actions need `flotilla run --serve`.
 */
export function createProviderApiApp(deps: ProviderApiDeps): OpenAPIHono {
  const now = deps.now ?? Date.now;
  const app = createApiBase({ token: deps.token });
  const { watch } = deps;

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
        }),
      },
      responses: json(
        "the provider's open work items as last read, oldest first (closed ones are not listed)",
      ),
    }),
    (c) => {
      const query = c.req.valid('query');
      const items = watch
        .items()
        .filter((item) => query.state !== 'closed' || item.status === 'closed')
        .filter((item) => query.status.length === 0 || query.status.includes(item.status));
      return c.json(items, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/work-items/{id}',
      request: { params: IdParams },
      responses: json('one work item with its body, comments and open revision (as `work show --json`)'),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const item =
        watch.items().find((candidate) => candidate.id === id) ??
        (await deps.provider.workItemReader.getWorkItem(id));
      if (item === null) throw new ApiError(404, 'not_found', `work item #${id} does not exist`);
      const status = (blocker: string) => watch.items().find((candidate) => candidate.id === blocker)?.status;
      const revision = watch.revisions().find((candidate) => candidate.id === item.linkedRevision) ?? null;
      const comments = (await deps.provider.workItemReader.listComments?.(id)) ?? [];
      return c.json(
        {
          ...item,
          waitingFor: listOpenBlockers(item, status),
          body: await deps.provider.workItemReader.getWorkItemBody(id),
          labels: [],
          comments: comments.map((comment, index) => ({ id: `${id}-${index}`, ...comment })),
          revision:
            revision === null
              ? null
              : { ...revision, pipeline: buildChecksView(revision.pipeline), state: 'open', reviews: [] },
          taskContext: deps.history.taskContext.list(id),
        },
        200,
      );
    },
  );

  registerHistoryRoutes(app, { config: deps.config, history: deps.history, now });
  registerStatusRoute(app, {
    provider: deps.providerName,
    engine: false,
    quota: deps.provider.quota,
    now,
  });

  registerTrackerActionRoutes(app, {
    provider: deps.provider,
    readAuthor: deps.readAuthor,
    afterWrite: () => watch.refresh(),
  });
  for (const [action, command] of Object.entries(CLI_ONLY_ACTIONS)) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/work-items/{id}/${action}`,
        description: `refused: \`flotilla serve\` on ${deps.providerName} leaves it to \`${command}\``,
        request: {
          params: IdParams,
          body: { required: true, content: { 'application/json': { schema: z.object({}).passthrough() } } },
        },
        responses: {
          400: errorResponse('invalid request'),
          401: errorResponse('missing or wrong bearer token'),
          409: errorResponse('this server leaves it to the CLI'),
        },
      }),
      (c) => {
        const { id } = c.req.valid('param');
        const where = deps.isEngineRunning()
          ? 'the running `flotilla run` sees it at its next poll'
          : 'no `flotilla run` is running here: one takes it when it starts';
        throw new ApiError(
          409,
          'read_only',
          `flotilla serve on ${deps.providerName} does not ${action}: use \`${command} ${id}\` (or GitHub itself); ${where}`,
        );
      },
    );
  }
  registerEventsRoute(app, deps.events);
  registerEngineActionRoutes(app, undefined);
  registerWebAppRoutes(app, deps.webRoot);
  serveOpenApiDocument(app);
  return app;
}
