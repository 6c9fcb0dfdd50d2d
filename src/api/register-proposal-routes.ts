import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  commentOnProposal,
  type DecisionTarget,
  decideProposal,
  requirePendingProposal,
} from '../cli/support/decide-proposal.ts';
import { findProposalDecision, PROPOSAL_STATUSES, type Proposal } from '../domain/index.ts';
import type { Provider } from '../providers/types.ts';
import type { EngineStatePersistence, SqliteTracker } from '../storage/index.ts';
import { ApiError } from './api-error.ts';

export interface ProposalRouteDeps {
  history: EngineStatePersistence;
  tracker: SqliteTracker;
  provider: Pick<Provider, 'workItemWriter'>;
  readAuthor(): Promise<string>;
  /** Whether an engine runs in this process (`flotilla run --serve`): it reads the decision at once. */
  engine: boolean;
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
  404: errorResponse('no such proposal'),
  409: errorResponse('the proposal is not pending'),
});
const IdParams = z.object({
  id: z
    .string()
    .regex(/^#?[1-9]\d*$/, 'a proposal id (its work item) such as 12')
    .transform((id) => id.replace(/^#/, ''))
    .openapi({ param: { name: 'id', in: 'path' }, example: '12' }),
});
const DecisionBody = z.object({ comment: z.string().max(65536).optional() });
const FeedbackBody = z.object({ comment: z.string().trim().min(1, 'your feedback, not empty').max(65536) });

function requireProposalFound(history: EngineStatePersistence, id: string): Proposal {
  const proposal = history.proposals.get(id);
  if (proposal === null) throw new ApiError(404, 'not_found', `no proposal #${id}`);
  return proposal;
}

/**
 * A pending proposal with the decision a human already recorded on its item (`decision`), which the engine
 * has not applied yet (no engine in this process, or not read yet); null when nobody decided.
 */
function withRecordedDecision(tracker: SqliteTracker, proposal: Proposal) {
  if (proposal.status !== 'pending') return proposal;
  const decision = findProposalDecision(tracker.workItems.getWorkItemComments(proposal.id), {
    feedback: true,
  });
  return {
    ...proposal,
    decision:
      decision === null
        ? null
        : {
            decision: decision.decision,
            author: decision.author,
            ...(decision.feedback === true && { feedback: true }),
          },
  };
}

/**
 * `flotilla proposals list|show|accept|reject|comment` over HTTP (issue #29), through the CLI's own core
 * (src/cli/support/decide-proposal.ts): a decision (or feedback) is a comment on the proposal's item, as the
 * human, that the engine reads — at once under `flotilla run --serve`, else at the next `flotilla run`.
 */
export function registerProposalRoutes(app: OpenAPIHono, deps: ProposalRouteDeps): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/proposals',
      request: { query: z.object({ status: z.enum(PROPOSAL_STATUSES).optional() }) },
      responses: ok('proposals, newest first (as `flotilla proposals list --json`)'),
    }),
    (c) => {
      const { status } = c.req.valid('query');
      const list = deps.history.proposals.list(status === undefined ? {} : { status });
      return c.json(
        list.map((proposal) => withRecordedDecision(deps.tracker, proposal)),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/proposals/{id}',
      request: { params: IdParams },
      responses: ok('one proposal (as `flotilla proposals show --json`)'),
    }),
    (c) =>
      c.json(
        withRecordedDecision(deps.tracker, requireProposalFound(deps.history, c.req.valid('param').id)),
        200,
      ),
  );

  for (const decision of ['accept', 'reject'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/proposals/{id}/${decision}`,
        request: {
          params: IdParams,
          body: { required: true, content: { 'application/json': { schema: DecisionBody } } },
        },
        responses: ok(
          decision === 'accept'
            ? 'records the acceptance; the plan is applied (as `flotilla proposals accept`)'
            : 'records the rejection with `comment`; the planner revises the plan (as `flotilla proposals reject`)',
        ),
      }),
      async (c) => {
        const { id } = c.req.valid('param');
        const { comment } = c.req.valid('json');
        requireProposalFound(deps.history, id);
        const proposal = requirePendingProposal(deps.history, id);
        const outcome = await decideProposal(
          decisionTarget(deps),
          proposal,
          decision,
          decision === 'reject' ? (comment ?? '') : '',
        );
        return c.json({ ...outcome, when: deps.engine ? 'now' : 'at the next flotilla run' }, 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/proposals/{id}/comment',
      request: {
        params: IdParams,
        body: { required: true, content: { 'application/json': { schema: FeedbackBody } } },
      },
      responses: ok(
        'records `comment` as feedback; the proposal is revised with it, nothing applied (as `flotilla proposals comment`)',
      ),
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { comment } = c.req.valid('json');
      requireProposalFound(deps.history, id);
      const proposal = requirePendingProposal(deps.history, id);
      const outcome = await commentOnProposal(decisionTarget(deps), proposal, comment);
      return c.json({ ...outcome, when: deps.engine ? 'now' : 'at the next flotilla run' }, 200);
    },
  );
}

function decisionTarget(deps: ProposalRouteDeps): DecisionTarget {
  return {
    history: deps.history,
    tracker: deps.tracker,
    addComment: (itemID, body) => deps.provider.workItemWriter.addComment(itemID, body),
    readAuthor: deps.readAuthor,
  };
}
