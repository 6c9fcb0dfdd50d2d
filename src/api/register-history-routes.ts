import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { buildBudgetReport } from '../cli/commands/budget-command-report.ts';
import { buildRunSummary } from '../cli/commands/runs-command-summary.ts';
import type { FlotillaConfig } from '../config/index.ts';
import type { EngineStatePersistence } from '../storage/index.ts';
import { ApiError } from './api-error.ts';

const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
/** `?item=12`: only what concerns that work item. */
const ITEM_ID = z
  .string()
  .regex(/^[1-9]\d*$/, 'a work item id such as 12')
  .optional();
const ok = (description: string) => ({
  200: { description, content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } } },
  400: { description: 'invalid request', content: { 'application/json': { schema: ErrorSchema } } },
  401: {
    description: 'missing or wrong bearer token',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  404: { description: 'no such run', content: { 'application/json': { schema: ErrorSchema } } },
});

/**
 * What the run history in `.flotilla/flotilla.db` answers, whatever the provider: the runs (as `flotilla runs
 * --json`), the conversations between agents (as `flotilla conversations --json`) and the budget (as
 * `flotilla budget --json`).
 */
export function registerHistoryRoutes(
  app: OpenAPIHono,
  deps: { config: FlotillaConfig; history: EngineStatePersistence; now: () => number },
): void {
  const { history, now } = deps;
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs',
      request: {
        query: z.object({
          limit: z.coerce.number().int().min(1).max(1000).default(20),
          item: ITEM_ID,
        }),
      },
      responses: ok('agent runs, newest first (as `flotilla runs --json`)'),
    }),
    (c) => {
      const { limit, item } = c.req.valid('query');
      return c.json(history.listRuns({ limit, workItemID: item }).map(buildRunSummary), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs/{session}',
      request: { params: z.object({ session: z.string().min(1).max(200) }) },
      responses: ok('one agent run (as an element of `flotilla runs --json`)'),
    }),
    (c) => {
      const { session } = c.req.valid('param');
      const run = history.listRuns().find((candidate) => candidate.sessionID === session);
      if (run === undefined) throw new ApiError(404, 'not_found', `no run with session ${session}`);
      return c.json(buildRunSummary(run), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations',
      request: {
        query: z.object({
          limit: z.coerce.number().int().min(1).max(1000).default(50),
          item: ITEM_ID,
        }),
      },
      responses: ok(
        'questions agents asked each other and the answers, newest first (as `flotilla conversations --json`)',
      ),
    }),
    (c) => {
      const { limit, item } = c.req.valid('query');
      return c.json(
        history.conversations.list({ limit, ...(item !== undefined && { workItemID: item }) }),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/budget',
      responses: ok('spend against every cap (as `flotilla budget --json`)'),
    }),
    (c) => c.json(buildBudgetReport(deps.config, history.ledger, now()), 200),
  );
}
