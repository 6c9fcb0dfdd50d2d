import type { EngineCommand, ModeReport, Proposal } from '../../domain/index.ts';
import { getApprovedSpecSHAs } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/** Marks the engine's comment on a rejected proposal's item (never read as a decision). */
const REJECTED_COMMENT_MARKER = '<!-- flotilla:proposal-rejected -->';

/**
 * A human decided the pending proposal (issue #29 §2). Accepted: the stored plan is applied exactly as an
 * `approval.plans: auto` plan is (`applyPlannerResult`, which then closes the proposal's item saying what it
 * created). Rejected: the item is closed with the reason, and a `plan-revision` planner run starts on the
 * approved specs with the reason and the rejected plan in its prompt; its result is a new proposal. A human's
 * plain comments on the proposal's item (`feedback`) are such a rejection, their text the reason. A pending
 * proposal's item closed by a human drops the proposal (stale, nothing applied); planning starts again when
 * a spec changes or someone asks (the dashboard's `d`).
 */
export const handleProposals: Handler = (event, state) => {
  if (event.type === 'workItemChanged') return closedByHuman(event.workItemID, state);
  if (event.type !== 'proposalDecided') return [];
  const proposal = state.proposals[event.proposalID];
  if (proposal === undefined || proposal.decidedAt !== event.at) return [];
  const said = buildDecidedText(event.author, proposal.reason ?? '', event.feedback === true);
  if (proposal.report != null && proposal.subjectID != null)
    return decideModeProposal(proposal, proposal.report, said, state);
  if (proposal.status === 'accepted')
    return [
      {
        type: 'applyPlannerResult',
        result: proposal.result,
        proposalID: proposal.id,
        sessionID: proposal.sessionID,
      },
    ];
  if (proposal.status !== 'rejected') return [];
  const reason = proposal.reason ?? '';
  const commands: EngineCommand[] = [
    {
      type: 'commentOnWorkItem',
      workItemID: proposal.id,
      body:
        `${REJECTED_COMMENT_MARKER}\n${said} The planner revises the plan with this feedback; the revised ` +
        'plan is proposed on a new item.',
    },
    { type: 'transitionWorkItemStatus', workItemID: proposal.id, newStatus: 'closed', cause: 'planner' },
  ];
  const specSHAs = getApprovedSpecSHAs(state);
  if (Object.keys(specSHAs).length === 0) return commands;
  return [
    ...commands,
    {
      type: 'requestPlannerRun',
      specPaths: Object.keys(specSHAs),
      specSHAs,
      revision: { proposalID: proposal.id, reason, previous: proposal.result },
    },
  ];
};

/**
 * An investigation's or refinement's proposal (issue #29). Accepted: applied through `applyModeResult`
 * (which closes the proposal's item). Rejected: the proposal's item is closed with the reason, which is
 * also said on the item it was about. With a reason, that item goes back to pending and its mode runs
 * again, the reason and the rejected report in its prompt (context-assembly/build-mode-revision-section.ts),
 * as a plan-revision does for plans; without one it stays in needs-refinement for a human.
 */
function decideModeProposal(
  proposal: Proposal,
  report: ModeReport,
  said: string,
  state: Parameters<Handler>[1],
): EngineCommand[] {
  const subjectID = proposal.subjectID ?? '';
  if (proposal.status === 'accepted')
    return [
      {
        type: 'applyModeResult',
        workItemID: subjectID,
        sessionID: proposal.sessionID,
        report,
        proposalID: proposal.id,
      },
    ];
  if (proposal.status !== 'rejected') return [];
  const reason = proposal.reason ?? '';
  // Only an item still parked for the proposal runs again (a human may have moved it meanwhile).
  const rerun = reason.trim() !== '' && state.workItems[subjectID]?.status === 'needs-refinement';
  const next = rerun
    ? `The ${report.mode === 'investigate' ? 'investigation' : 'refinement'} runs again with this reason.`
    : 'This item waits for a human.';
  const commands: EngineCommand[] = [
    { type: 'commentOnWorkItem', workItemID: proposal.id, body: `${REJECTED_COMMENT_MARKER}\n${said}` },
    { type: 'transitionWorkItemStatus', workItemID: proposal.id, newStatus: 'closed', cause: 'planner' },
    {
      type: 'commentOnWorkItem',
      workItemID: subjectID,
      body: `The ${proposal.kind} proposed on #${proposal.id} was rejected. ${said} ${next}`,
    },
  ];
  if (!rerun) return commands;
  // An automatic refinement's item (no `task:refine` label) is refined again where it waits; pending would
  // have it implemented as it is.
  if (report.mode === 'refine' && state.workItems[subjectID]?.mode === undefined)
    return [...commands, { type: 'requestImplementorRun', workItemID: subjectID, mode: 'refine' }];
  commands.push({
    type: 'transitionWorkItemStatus',
    workItemID: subjectID,
    newStatus: 'pending',
    cause: 'user',
  });
  return commands;
}

/** What the engine says on a rejected proposal's item: who, and their reason or feedback. */
function buildDecidedText(author: string, reason: string, feedback: boolean): string {
  if (feedback) return `Revised on feedback from ${author}: ${reason}.`;
  return `Rejected by ${author}${reason === '' ? ' (no reason given)' : `: ${reason}`}.`;
}

function closedByHuman(workItemID: string, state: Parameters<Handler>[1]): EngineCommand[] {
  const proposal = state.proposals[workItemID];
  if (proposal?.status !== 'pending' || state.workItems[workItemID]?.status !== 'closed') return [];
  return [
    {
      type: 'markProposalStale',
      proposalID: proposal.id,
      reason: 'its item was closed without a decision',
      restorePlanned: true,
    },
  ];
}
