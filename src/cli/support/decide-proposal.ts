import { buildDecisionComment, type Proposal, type ProposalEdit } from '../../domain/index.ts';
import type { EngineStatePersistence, SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';

/** Where a decision is recorded: the local tracker as the human, else a comment through the contract. */
export interface DecisionTarget {
  history: Pick<EngineStatePersistence, 'proposals'>;
  tracker: Pick<SqliteTracker, 'workItems'> | undefined;
  addComment(id: string, body: string): Promise<void>;
  readAuthor(): Promise<string>;
}

/** What `flotilla proposals accept|reject` and `POST /api/proposals/:id/accept|reject` report. */
export interface ProposalDecision {
  proposalID: string;
  decision: 'accept' | 'reject';
  /** The git author on the local tracker, else null (a comment through the provider). */
  author: string | null;
  /** What follows: the plan is applied, the planner revises it, or its item waits for a human. */
  effect: string;
}

export function requireProposal(proposal: Proposal | null, rawID: string): Proposal {
  if (proposal !== null) return proposal;
  throw new CliError(`no proposal ${rawID} (\`flotilla proposals list\` lists them)`, { exitCode: 1 });
}

/** A pending proposal by id, or a CliError (unknown: exit 1 "no proposal"; decided: exit 1). */
export function requirePendingProposal(history: DecisionTarget['history'], id: string): Proposal {
  const proposal = requireProposal(history.proposals.get(id), id);
  if (proposal.status !== 'pending') {
    throw new CliError(
      `proposal #${id} is ${proposal.status}${proposal.decidedBy === null ? '' : ` (by ${proposal.decidedBy})`}; only a pending one can be decided (\`flotilla proposals list\`)`,
      { exitCode: 1 },
    );
  }
  return proposal;
}

/**
 * Records a human's decision as a comment on the proposal's item, where the running control plane (or the
 * next `flotilla run`) reads it: an acceptance applies the plan (or `edit`, the human's edited version), a
 * rejection has the planner revise a plan with `reason`. Shared by the CLI and the HTTP API.
 */
export async function decideProposal(
  target: DecisionTarget,
  proposal: Proposal,
  decision: 'accept' | 'reject',
  reason: string,
  edit?: ProposalEdit,
): Promise<ProposalDecision> {
  const body = buildDecisionComment(decision, reason, edit);
  let author: string | null = null;
  if (target.tracker === undefined) {
    await target.addComment(proposal.id, body);
  } else {
    author = await target.readAuthor();
    target.tracker.workItems.addComment(proposal.id, body, author);
  }
  const effect =
    decision === 'reject'
      ? proposal.kind === 'plan'
        ? 'the planner revises the plan with your comment'
        : 'its item waits for a human, with your comment'
      : `${edit === undefined ? 'it' : 'your edited version'} is applied`;
  return { proposalID: proposal.id, decision, author, effect };
}
