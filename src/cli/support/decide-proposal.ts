import {
  buildDecisionComment,
  buildFeedbackComment,
  type Proposal,
  type ProposalEdit,
} from '../../domain/index.ts';
import type { EngineStatePersistence, SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';

/** Where a decision is recorded: the local tracker as the human, else a comment through the contract. */
export interface DecisionTarget {
  history: Pick<EngineStatePersistence, 'proposals'>;
  tracker: Pick<SqliteTracker, 'workItems'> | undefined;
  addComment(id: string, body: string): Promise<void>;
  readAuthor(): Promise<string>;
}

/** What `flotilla proposals accept|reject|comment` and `POST /api/proposals/:id/…` report. */
export interface ProposalDecision {
  proposalID: string;
  /** `comment`: feedback, recorded as a rejection whose reason is the comment (issue #29). */
  decision: 'accept' | 'reject' | 'comment';
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
  const author = await postAsHuman(target, proposal.id, buildDecisionComment(decision, reason, edit));
  const effect =
    decision === 'reject'
      ? proposal.kind === 'plan'
        ? 'the planner revises the plan with your comment'
        : 'its item waits for a human, with your comment'
      : `${edit === undefined ? 'it' : 'your edited version'} is applied`;
  return { proposalID: proposal.id, decision, author, effect };
}

/**
 * Records a human's feedback on a pending proposal (`flotilla proposals comment`, issue #29: a human
 * "comments on a plan"): a marked comment on its item, read as feedback whatever its text (a text that
 * starts with `/accept` is not an acceptance). The engine closes the proposal as rejected with the text as
 * its reason and revises it, as `reject --comment` does. Empty text: a CliError (exit 2).
 */
export async function commentOnProposal(
  target: DecisionTarget,
  proposal: Proposal,
  text: string,
): Promise<ProposalDecision> {
  if (text.trim() === '')
    throw new CliError(
      'the comment is empty; say what to change (e.g. "Split the parser into its own item")',
      {
        exitCode: 2,
      },
    );
  const author = await postAsHuman(target, proposal.id, buildFeedbackComment(text));
  const effect =
    proposal.kind === 'plan'
      ? 'the planner revises the plan with your comment'
      : `the ${proposal.kind} runs again with your comment (if its item still waits)`;
  return { proposalID: proposal.id, decision: 'comment', author, effect };
}

/** On the local tracker as the human (their git author, returned); elsewhere through the provider (null). */
async function postAsHuman(target: DecisionTarget, id: string, body: string): Promise<string | null> {
  if (target.tracker === undefined) {
    await target.addComment(id, body);
    return null;
  }
  const author = await target.readAuthor();
  target.tracker.workItems.addComment(id, body, author);
  return author;
}
