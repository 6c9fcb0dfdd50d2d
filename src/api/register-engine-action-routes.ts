import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { EngineEvent } from '../domain/index.ts';
import type { EngineState } from '../engine/state-store/index.ts';
import { buildItemActions, type ItemActionKey } from '../tui/actions/build-item-actions.ts';
import { buildWorkItemSections } from '../tui/view-model/build-work-item-sections.ts';
import { ApiError } from './api-error.ts';

/** What the action routes need of the engine (`flotilla run --serve`'s own). */
export interface ApiEngine {
  getState(): EngineState;
  /** The event goes through the engine's handlers and command executor, as the dashboard's keys do. */
  enqueue(event: EngineEvent): void;
}

/** Each action is the terminal dashboard's key of the same name (src/tui/actions/build-item-actions.ts). */
const ACTIONS = {
  cancel: { key: 'x', what: "cancels the item's running agent; the item is parked as blocked" },
  retry: { key: 'd', what: "runs the item's failed implementor or reviewer again" },
  unblock: { key: 'u', what: 'moves a blocked or needs-refinement item to pending (fresh retry budget)' },
  merge: { key: 'm', what: "merges an approved item's revision and closes the item" },
} as const satisfies Record<string, { key: ItemActionKey; what: string }>;

const IdParams = z.object({
  id: z
    .string()
    .regex(/^#?[1-9]\d*$/, 'a work item id such as 12')
    .transform((id) => id.replace(/^#/, ''))
    .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
});
const ErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});

/**
 * `POST /api/work-items/:id/{cancel,retry,unblock,merge}`: the dashboard's actions, offered under the same
 * rules (`buildItemActions`), each enqueued as the same engine event, so the engine's guards and policy
 * decide as they do for a key press. 202: the engine has it (watch `/api/events`). Without an engine
 * (`flotilla serve`) they are refused: 409 `engine_not_running`.
 */
export function registerEngineActionRoutes(app: OpenAPIHono, engine: ApiEngine | undefined): void {
  for (const [name, action] of Object.entries(ACTIONS)) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/work-items/{id}/${name}`,
        description: `${action.what} (needs \`flotilla run --serve\`)`,
        request: {
          params: IdParams,
          body: { required: true, content: { 'application/json': { schema: z.object({}) } } },
        },
        responses: {
          202: {
            description: 'the engine has the request',
            content: {
              'application/json': {
                schema: z.object({ workItemID: z.string(), action: z.string(), event: z.string() }),
              },
            },
          },
          400: errorResponse('invalid request'),
          401: errorResponse('missing or wrong bearer token'),
          404: errorResponse('the engine knows no such item'),
          409: errorResponse('not possible now (or no engine runs here)'),
        },
      }),
      (c) => {
        const { id } = c.req.valid('param');
        if (engine === undefined) {
          throw new ApiError(
            409,
            'engine_not_running',
            `${name} needs the engine: this server has none (flotilla serve); use flotilla run --serve`,
          );
        }
        const event = chooseActionEvent(engine.getState(), id, name, action.key);
        engine.enqueue(event);
        return c.json({ workItemID: id, action: name, event: event.type }, 202);
      },
    );
  }
}

function chooseActionEvent(state: EngineState, id: string, name: string, key: ItemActionKey): EngineEvent {
  const item = state.workItems[id];
  if (item === undefined) throw new ApiError(404, 'not_found', `the engine knows no work item #${id}`);
  const row = buildWorkItemSections(state)
    .flatMap((section) => section.rows)
    .find((candidate) => candidate.item.id === id);
  const actions = row === undefined ? [] : buildItemActions(row, state);
  const chosen = actions.find(
    (candidate) => candidate.key === key && (name !== 'retry' || candidate.label.startsWith('retry')),
  );
  if (chosen === undefined || chosen.effect.kind !== 'event') {
    const possible = actions.filter((candidate) => candidate.effect.kind === 'event').map((a) => a.label);
    throw new ApiError(
      409,
      'conflict',
      `#${id} (${row?.displayStatus ?? item.status}) cannot be given ${name} now${possible.length > 0 ? `; possible: ${possible.join(', ')}` : ''}`,
    );
  }
  return chosen.effect.event;
}
