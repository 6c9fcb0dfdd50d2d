import {
  buildProposalComment,
  type EngineEvent,
  type MarkProposalStale,
  PROPOSAL_LABEL,
  type Proposal,
  type ProposePlan,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { closeTrackingItem, findPlannerResultError } from './apply-planner-result.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/** Spec paths named in the title; the rest are counted. */
const TITLE_PATHS = 3;
/** Marks the engine's comments on a proposal's item that are not the proposal (never read as decisions). */
const STALE_COMMENT_MARKER = '<!-- flotilla:proposal-stale -->';
const QUESTIONS_PROPOSED_MARKER = '<!-- flotilla:planner-proposed -->';

/**
 * `approval.plans: required` (issue #29 §2): a planner's result is checked as `applyPlannerResult` checks it
 * (nothing is stored when it would be rejected: thrown → commandFailed), then posted on a `task:proposal`
 * item of its own, created `waiting-for-input` (never dispatched): a readable list and a hidden block with
 * the plan, as one comment. The proposal's id is the item's; `proposalCreated` stores it (SQLite, migration
 * 012), and the proposal poller reads `/accept`, `/reject <why>` or feedback from the item's replies. A resumed
 * planner's questions item is closed, pointing at the proposal.
 */
export async function proposePlan(
  command: ProposePlan,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const invalid = findPlannerResultError(command.result, state);
  if (invalid !== null) throw new Error(`planner result rejected, nothing proposed: ${invalid}`);
  const paths = Object.keys(command.specSHAs).sort();
  const created = await deps.workItemWriter.createWorkItem({
    title: `Plan proposal: ${summarisePaths(paths)}`,
    body: buildProposalItemBody(paths),
    labels: [PROPOSAL_LABEL, 'status:waiting-for-input'],
    blockedBy: [],
  });
  const now = deps.clock.now();
  const proposal: Proposal = {
    id: created.id,
    kind: 'plan',
    status: 'pending',
    sessionID: command.sessionID,
    specSHAs: command.specSHAs,
    basePlannedSHAs: command.basePlannedSHAs,
    result: command.result,
    revises: command.revises,
    createdAt: now,
    decidedAt: null,
    decidedBy: null,
    reason: null,
  };
  await deps.workItemWriter.addComment(created.id, buildProposalComment(proposal));
  const events: EngineEvent[] = [
    buildWorkItemChanged(created, null),
    { type: 'proposalCreated', proposal, at: now },
  ];
  if (command.questionsItemID !== undefined) {
    const closed = await closeTrackingItem(
      command.questionsItemID,
      state,
      deps,
      `${QUESTIONS_PROPOSED_MARKER}\nThe planner finished with your answers: its plan waits for approval on ` +
        `#${created.id}. Closing these questions.`,
    );
    if (closed !== null) events.push(closed);
  }
  return events;
}

/** A pending proposal that no longer plans the approved specs: said on its item, which is closed. */
export async function markProposalStale(
  command: MarkProposalStale,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'clock'>,
): Promise<EngineEvent[]> {
  const proposal = state.proposals[command.proposalID];
  if (proposal === undefined || proposal.status !== 'pending') return [];
  const closed = await closeTrackingItem(
    proposal.id,
    state,
    deps,
    `${STALE_COMMENT_MARKER}\nThis proposal is stale: ${command.reason}. It was not applied; ` +
      'a new plan is proposed on a new item.',
  );
  return [
    ...(closed === null ? [] : [closed]),
    {
      type: 'proposalStale',
      proposalID: proposal.id,
      reason: command.reason,
      restorePlanned: command.restorePlanned,
      at: deps.clock.now(),
    },
  ];
}

function summarisePaths(paths: readonly string[]): string {
  if (paths.length <= TITLE_PATHS) return paths.join(', ');
  return `${paths.slice(0, TITLE_PATHS).join(', ')} and ${paths.length - TITLE_PATHS} more`;
}

function buildProposalItemBody(paths: readonly string[]): string {
  return [
    'The planner proposes a plan for these specs, and `approval.plans` is `required`: nothing is applied',
    'until a human accepts it.',
    '',
    ...paths.map((path) => `- \`${path}\``),
    '',
    'The plan is in the comments. Reply `/accept` to apply it (its work items are created), or',
    '`/reject <why>` — or any other comment — to have the planner revise it with your feedback',
    '(`flotilla proposals accept|reject|comment` does the same). Editing an approved spec instead makes',
    'this proposal stale and plans again.',
    'It is never dispatched to an implementor.',
  ].join('\n');
}
