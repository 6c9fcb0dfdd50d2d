import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { parseStatsSince } from '../analytics/parse-stats-since.ts';
import { buildStatsReport } from '../cli/support/build-stats-report.ts';
import type { EngineStatePersistence, SqliteTracker } from '../storage/index.ts';
import { ApiError } from './api-error.ts';

export interface MemoryStatsRouteDeps {
  history: EngineStatePersistence;
  tracker: SqliteTracker;
  now: () => number;
}

const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
const ok = (description: string) => ({
  200: { description, content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } } },
  400: { description: 'invalid request', content: { 'application/json': { schema: ErrorSchema } } },
  401: {
    description: 'missing or wrong bearer token',
    content: { 'application/json': { schema: ErrorSchema } },
  },
});

/** `GET /api/memory` (`flotilla memory list --json`) and `GET /api/stats` (`flotilla stats --json`). */
export function registerMemoryStatsRoutes(app: OpenAPIHono, deps: MemoryStatsRouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/memory',
      responses: ok("the repository's memories, newest first (as `flotilla memory list --json`)"),
    }),
    (c) => c.json(deps.history.memories.list(), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/stats',
      request: { query: z.object({ since: z.string().max(40).optional() }) },
      responses: ok('outcome analytics for the period, default 7d (as `flotilla stats --json`)'),
    }),
    (c) => {
      const now = deps.now();
      const parsed = parseStatsSince(c.req.valid('query').since ?? '7d', now);
      if (!parsed.ok) throw new ApiError(400, 'invalid_request', parsed.error, 'since');
      return c.json(buildStatsReport(deps.history, deps.tracker, { since: parsed.since, now }), 200);
    },
  );
}
