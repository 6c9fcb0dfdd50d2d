import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { buildChecksSummary } from '../cli/support/build-checks-summary.ts';
import { buildDailySpend } from '../cli/support/build-daily-spend.ts';
import { recordHumanReview } from '../cli/support/record-human-review.ts';
import type { FlotillaConfig } from '../config/index.ts';
import type { Provider } from '../providers/types.ts';
import type { EngineStatePersistence, SqliteTracker } from '../storage/index.ts';

export interface ReviewRouteDeps {
  config: FlotillaConfig;
  tracker: SqliteTracker;
  /** The checks log of any head (its `history` capability; without it, no log). */
  provider: Pick<Provider, 'history'>;
  history: EngineStatePersistence;
  /** `.flotilla/`: is a `flotilla run` up? */
  paths: { stateDir: string; logsDir: string };
  readAuthor(): Promise<string>;
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
  description,
  content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } },
});
const IdParams = z.object({
  id: z
    .string()
    .regex(/^#?[1-9]\d*$/, 'a work item id such as 12')
    .transform((id) => id.replace(/^#/, ''))
    .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
});
const LineComment = z.object({
  path: z.string().min(1).max(1000).openapi({ example: 'src/greet.js' }),
  line: z.number().int().min(1).openapi({ description: "a line of the file's new version, from 1" }),
  body: z.string().trim().min(1, 'a line comment needs its text').max(65536),
});
const ReviewBody = z
  .object({
    verdict: z.enum(['approve', 'request-changes', 'comment']),
    body: z.string().max(65536).default(''),
    /** Line comments on the revision's changed files (as `flotilla review --comment-on path:line=text`). */
    comments: z.array(LineComment).max(100).default([]),
  })
  .refine(
    (review) => review.verdict === 'approve' || review.body.trim() !== '' || review.comments.length > 0,
    { message: 'request-changes and comment need the review text or a line comment', path: ['body'] },
  );

/** `POST /api/work-items/{id}/review`. */
const REVIEW_ROUTE = createRoute({
  method: 'post',
  path: '/api/work-items/{id}/review',
  description:
    'your verdict on the open revision (as `flotilla review`): approve → approved, request-changes → pending (an implementor reworks it with your review and its line comments), comment → no move; `comments` are line comments `{ path, line, body }` on files the revision changes',
  request: {
    params: IdParams,
    body: { required: true, content: { 'application/json': { schema: ReviewBody } } },
  },
  responses: {
    200: json('the review was recorded and the item moved: `{ workItemID, status, previousStatus, … }`'),
    400: errorResponse(
      'invalid request (no verdict, no text or line comment for request-changes or comment, a line comment on a file the revision does not change)',
    ),
    401: errorResponse('missing or wrong bearer token'),
    404: errorResponse('no such item'),
    409: errorResponse('closed, no open revision, in progress, or an agent runs on it'),
  },
});

/**
 * A human's review of an item's revision and what it is judged on: `POST …/review` (as `flotilla review`,
 * the same core), `GET …/checks` (as `flotilla checks --json`, with the tail of the checks log) and
 * `GET /api/budget/days` (spend per day, the dashboard's chart).
 */
export function registerReviewRoutes(app: OpenAPIHono, deps: ReviewRouteDeps): void {
  const now = deps.now ?? Date.now;
  app.openapi(REVIEW_ROUTE, async (c) => {
    const { id } = c.req.valid('param');
    const { verdict, body, comments } = c.req.valid('json');
    const summary = recordHumanReview(
      { tracker: deps.tracker, history: deps.history, stateDir: deps.paths.stateDir },
      id,
      { verdict, body: body.trim(), author: await deps.readAuthor(), lineComments: comments },
    );
    return c.json(summary, 200);
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/work-items/{id}/checks',
      request: { params: IdParams },
      responses: {
        200: json(
          'the checks of the revision head (as `flotilla checks --json`) and `log`: the last 200 lines of its log, or null',
        ),
        400: errorResponse('invalid request'),
        401: errorResponse('missing or wrong bearer token'),
        404: errorResponse('no such item'),
        409: errorResponse('the item has no revision yet'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const summary = buildChecksSummary(deps.tracker, deps.config.checks.command, id);
      // The provider reads only logs its checks wrote (local: .flotilla/logs/), any head's, whatever the outcome.
      const log = (await deps.provider.history?.readChecksLog(summary.revisionID)) ?? null;
      return c.json(
        { ...summary, log: log === null ? null : { text: log.text, truncated: log.truncated } },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/budget/days',
      request: { query: z.object({ days: z.coerce.number().int().min(1).max(92).default(14) }) },
      responses: {
        200: json(
          'spend per day, oldest first, ending today: `{ timeZone, dailyCapUSD, days: [{ day, spentUSD, scriptedUSD, runs }] }`',
        ),
        400: errorResponse('invalid request'),
        401: errorResponse('missing or wrong bearer token'),
      },
    }),
    (c) => c.json(buildDailySpend(deps.config, deps.history.ledger, now(), c.req.valid('query').days), 200),
  );
}
