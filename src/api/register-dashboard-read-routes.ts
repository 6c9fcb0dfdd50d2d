import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { buildRunSummary } from '../cli/commands/runs-command-summary.ts';
import { readRunTranscript } from '../cli/support/read-run-transcript.ts';
import { readWorkItemFiles } from '../cli/support/read-work-item-files.ts';
import type { Provider } from '../providers/types.ts';
import { shortenTranscript } from '../session-log/shorten-transcript.ts';
import type { EngineStatePersistence, SqliteTracker } from '../storage/index.ts';
import { buildDiffLines } from '../tui/view-model/build-diff-lines.ts';
import { ApiError } from './api-error.ts';
import { registerMemoryStatsRoutes } from './register-memory-stats-routes.ts';

export interface DashboardReadDeps {
  /** The tracker, through the contract: a revision's files (`getRevisionFiles`), its history (`history`). */
  provider: Provider;
  history: EngineStatePersistence;
  /** The repository the revisions' commits live in; without it the diff route answers 409. */
  repoRoot?: string | undefined;
  /** The local tracker: item outcomes for `GET /api/stats`. */
  tracker: SqliteTracker;
  now?: () => number;
}

const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});
const ok = (description: string) => ({
  200: { description, content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } } },
  400: errorResponse('invalid request'),
  401: errorResponse('missing or wrong bearer token'),
  404: errorResponse('no such item or run'),
  409: errorResponse('nothing to show (no revision, no transcript, not readable)'),
});

/**
 * What the web dashboard reads besides the lists (src/api/README.md): a run's transcript (as `flotilla
 * logs`, shortened unless `?full=1`) and the files of an item's revision with the terminal dashboard's diff
 * lines (`buildDiffLines`: each line with its colour), both through the CLI's cores.
 */
export function registerDashboardReadRoutes(app: OpenAPIHono, deps: DashboardReadDeps): void {
  registerMemoryStatsRoutes(app, { ...deps, now: deps.now ?? Date.now });
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/runs/{session}/transcript',
      request: {
        params: z.object({ session: z.string().min(1).max(200) }),
        query: z.object({ full: z.enum(['0', '1']).optional() }),
      },
      responses: ok("a run's transcript (as `flotilla logs [--full]`): `{ run, text }`"),
    }),
    async (c) => {
      const { session } = c.req.valid('param');
      const { full } = c.req.valid('query');
      // Whole ids only here (the CLI's prefixes are for typing): an unknown one is 404, not a conflict.
      if (deps.history.getRun(session) === null) {
        throw new ApiError(404, 'not_found', `no run with session ${session}`);
      }
      const { run, text } = await readRunTranscript(deps.history, session);
      return c.json(
        {
          run: buildRunSummary(run),
          text: full === '1' ? text : shortenTranscript(text, { hint: '; ?full=1 shows all' }),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/work-items/{id}/diff',
      request: {
        params: z.object({
          id: z
            .string()
            .regex(/^#?[1-9]\d*$/, 'a work item id such as 12')
            .transform((id) => id.replace(/^#/, ''))
            .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
        }),
      },
      responses: ok(
        "the files of the item's revision and the dashboard's diff lines: `{ revision, files, lines }`",
      ),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      if (deps.repoRoot === undefined) {
        throw new ApiError(409, 'conflict', 'this server has no repository to read diffs from');
      }
      const { revision, files } = await readWorkItemFiles(deps.provider, id);
      return c.json({ revision, files, lines: buildDiffLines(files) }, 200);
    },
  );
}
