import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { loadQueueSummary } from '../cli/support/load-queue-summary.ts';
import type { Provider } from '../providers/types.ts';

const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/**
 * `GET /api/merge-queue`: the merge queue as `flotilla queue --json` prints it (`loadQueueSummary`, the
 * same core): approved items in merge order, the head and what blocks it, the entries held back and why.
 * The web dashboard's queue panel draws it.
 */
export function registerMergeQueueRoute(
  app: OpenAPIHono,
  deps: { provider: Pick<Provider, 'workItemReader' | 'revisionReader'>; automatic: boolean },
): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/merge-queue',
      description:
        "the merge queue (as `flotilla queue --json`): `{ automatic, entries: [{ position, workItemID, title, priority, revisionID, headSHA, pipeline, waitingFor, trackerQueue: { position, state, enqueuedAt, estimatedTimeToMerge } | null }], head: { workItemID, revisionID, state, blockedBy } | null, held: [{ workItemID, reason }] }`; `trackerQueue` is the entry in GitHub's own merge queue",
      responses: {
        200: {
          description: 'the queue in merge order',
          content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } },
        },
        401: {
          description: 'missing or wrong bearer token',
          content: { 'application/json': { schema: ErrorSchema } },
        },
      },
    }),
    async (c) => c.json(await loadQueueSummary(deps.provider, deps.automatic), 200),
  );
}
