import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { addHumanComment } from '../cli/support/add-human-comment.ts';
import { dispatchWorkItem } from '../cli/support/dispatch-work-item.ts';
import { requireProviderItem } from '../cli/support/require-provider-item.ts';
import { buildAnswerComment } from '../domain/index.ts';
import type { Provider } from '../providers/types.ts';
import { ApiError } from './api-error.ts';

export interface TrackerActionDeps {
  /** The tracker, through the contract only: the same writes on every provider (local, GitHub). */
  provider: Pick<Provider, 'workItemReader' | 'workItemWriter' | 'revisionReader' | 'localAdmin'>;
  /** The author of comments and answers (the git author, as the CLI uses). */
  readAuthor(): Promise<string>;
  /** After a write: e.g. `flotilla serve` on GitHub reads the items again so the lists show it. */
  afterWrite?: () => Promise<void>;
}

const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});
const IdParams = z.object({
  id: z
    .string()
    .regex(/^#?[1-9]\d*$/, 'a work item id such as 12')
    .transform((id) => id.replace(/^#/, ''))
    .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
});
const TextBody = z.object({ body: z.string().trim().min(1, 'must not be empty').max(65536) });
const ok = (description: string) => ({
  200: { description, content: { 'application/json': { schema: z.unknown().openapi({ type: 'object' }) } } },
  400: errorResponse('invalid request'),
  401: errorResponse('missing or wrong bearer token'),
  404: errorResponse('no such item'),
  409: errorResponse('the state does not allow it'),
});
const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

/**
 * A human's tracker actions, through the provider contract (so `flotilla serve` does them on every
 * provider, as the CLI does): `POST …/comments` (`flotilla work comment`), `…/dispatch` (`flotilla work
 * dispatch`) and `…/answer` (`flotilla answer`).
 */
export function registerTrackerActionRoutes(app: OpenAPIHono, deps: TrackerActionDeps): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/work-items/{id}/comments',
      request: { params: IdParams, ...jsonBody(TextBody) },
      responses: ok('the comment was recorded, as you (as `flotilla work comment`)'),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { body } = c.req.valid('json');
      await requireProviderItem(deps.provider, id);
      const author = await deps.readAuthor();
      await addHumanComment(deps.provider, id, { body, author });
      await deps.afterWrite?.();
      return c.json({ workItemID: id, author }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/work-items/{id}/dispatch',
      request: { params: IdParams, ...jsonBody(z.object({})) },
      responses: ok('moved to ready; the running engine dispatches it (as `flotilla work dispatch`)'),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const outcome = await dispatchWorkItem(deps.provider, id);
      await deps.afterWrite?.();
      return c.json({ workItemID: id, ...outcome, status: 'ready' }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/work-items/{id}/answer',
      request: { params: IdParams, ...jsonBody(TextBody) },
      responses: ok("answers an agent's questions; its session resumes with them (as `flotilla answer`)"),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { body } = c.req.valid('json');
      const item = await requireProviderItem(deps.provider, id);
      if (item.status !== 'waiting-for-input') {
        throw new ApiError(
          409,
          'conflict',
          `#${id} is ${item.status}, not waiting-for-input: no agent is waiting for answers`,
        );
      }
      const author = await deps.readAuthor();
      await addHumanComment(deps.provider, id, { body: buildAnswerComment(body), author }, { signed: false });
      await deps.afterWrite?.();
      return c.json({ workItemID: id, author }, 200);
    },
  );
}
