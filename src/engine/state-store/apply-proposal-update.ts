import type { ProposalCreated, ProposalDecided, ProposalStale } from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';

/**
 * Proposals (issue #29 §2). `proposalCreated` stores it pending. `proposalDecided` records the decision on
 * the pending proposal only (a decision read twice, or for a decided one, changes nothing); a rejection also
 * returns the planned SHAs to before the plan, as `proposalStale` does with `restorePlanned`: the specs were
 * never planned at those versions, so the next (revision) plan diffs against what was really applied. Only
 * paths still planned at the proposal's own SHAs go back — a later plan's record is never undone.
 */
export function applyProposalUpdate(
  state: EngineState,
  event: ProposalCreated | ProposalDecided | ProposalStale,
): { state: EngineState; warnings: string[] } {
  if (event.type === 'proposalCreated') {
    return {
      state: { ...state, proposals: { ...state.proposals, [event.proposal.id]: event.proposal } },
      warnings: [],
    };
  }
  const proposal = state.proposals[event.proposalID];
  if (proposal === undefined || proposal.status !== 'pending') {
    return {
      state,
      warnings: [`${event.type} for proposal #${event.proposalID}, which is not pending: ignored`],
    };
  }
  const decided =
    event.type === 'proposalDecided'
      ? {
          ...proposal,
          status: event.decision === 'accept' ? ('accepted' as const) : ('rejected' as const),
          decidedAt: event.at,
          decidedBy: event.author,
          reason: event.reason,
          // Accepted as edited: the edited plan or report is what gets applied (and checked then).
          ...(event.decision === 'accept' &&
            event.edited?.result !== undefined && { result: event.edited.result }),
          ...(event.decision === 'accept' &&
            event.edited?.report !== undefined && { report: event.edited.report }),
        }
      : { ...proposal, status: 'stale' as const, decidedAt: event.at, reason: event.reason };
  const next = { ...state, proposals: { ...state.proposals, [proposal.id]: decided } };
  const restore =
    (event.type === 'proposalDecided' && event.decision === 'reject') ||
    (event.type === 'proposalStale' && event.restorePlanned);
  if (!restore) return { state: next, warnings: [] };
  const lastPlannedSHAs = { ...state.lastPlannedSHAs };
  for (const [path, sha] of Object.entries(proposal.specSHAs)) {
    if (lastPlannedSHAs[path] !== sha) continue;
    const before = proposal.basePlannedSHAs[path];
    if (before === undefined) delete lastPlannedSHAs[path];
    else lastPlannedSHAs[path] = before;
  }
  return { state: { ...next, lastPlannedSHAs }, warnings: [] };
}
