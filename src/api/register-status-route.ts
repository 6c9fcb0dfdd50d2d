import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { buildQuotaSummary, type TrackerQuota } from '../tui/view-model/build-quota-summary.ts';

/** What the status route says about the server: its provider and, for a metered one, its quota. */
export interface ApiStatusDeps {
  /** The configured provider's name (`local`, `github`). */
  provider: string;
  /** Whether an engine runs in this process (`flotilla run --serve`): the engine actions work. */
  engine: boolean;
  /** The provider's rate-limit budget (GitHub's), as the terminal dashboard's header reads it. */
  quota?: (() => TrackerQuota | null) | undefined;
  now?: () => number;
}

/**
 * `GET /api/status`: `{ provider, engine, quota }`, where `quota` is the terminal dashboard's header text
 * (`buildQuotaSummary`: `GitHub 4987/5000 · resets 15:04 UTC`, with its tone) or null (local provider, or
 * before GitHub answered once).
 */
export function registerStatusRoute(app: OpenAPIHono, deps: ApiStatusDeps): void {
  const now = deps.now ?? Date.now;
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/status',
      responses: {
        200: {
          description: 'the provider, whether an engine runs here, and the tracker quota line',
          content: {
            'application/json': {
              schema: z.object({
                provider: z.string(),
                engine: z.boolean(),
                quota: z.object({ text: z.string(), tone: z.enum(['normal', 'low', 'paused']) }).nullable(),
              }),
            },
          },
        },
      },
    }),
    (c) =>
      c.json(
        {
          provider: deps.provider,
          engine: deps.engine,
          quota: buildQuotaSummary(deps.quota?.() ?? null, now()),
        },
        200,
      ),
  );
}
