import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import { createInMemoryProvider } from '../../../test/support/in-memory-provider/create-in-memory-provider.ts';
import { buildPlannerResult, buildTestState } from '../../../test/support/shared/builders/index.ts';
import { PROPOSAL_COMMENT_MARKER, type Proposal } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import { createProposalPoller } from './create-proposal-poller.ts';

function buildProposal(overrides: Partial<Proposal>): Proposal {
  return {
    id: '2',
    kind: 'plan',
    status: 'pending',
    sessionID: 'session-1',
    specSHAs: {},
    basePlannedSHAs: {},
    result: buildPlannerResult(),
    revises: null,
    createdAt: 1_000,
    decidedAt: null,
    decidedBy: null,
    reason: null,
    ...overrides,
  };
}

/**
 * Item 1 is what the proposal is about, item 2 the proposal's own; `onSubject`: the replies on item 1,
 * `onProposal`: those on item 2 after its proposal comment.
 */
async function pollWith(proposal: Proposal, onSubject: string[], onProposal: string[] = []) {
  const provider = createInMemoryProvider({ now: () => 1_700_000_000_000 });
  provider.control.addWorkItem({ title: 'vague item', status: 'needs-refinement' });
  provider.control.addWorkItem({ title: 'Refinement proposal: #1 vague item', status: 'waiting-for-input' });
  await provider.workItemWriter.addComment('2', `${PROPOSAL_COMMENT_MARKER}\nThe refinement proposes…`);
  for (const body of onSubject) await provider.workItemWriter.addComment('1', body);
  for (const body of onProposal) await provider.workItemWriter.addComment('2', body);
  const poller = createProposalPoller({
    reader: provider.workItemReader,
    logger: silentLogger,
    clock: createManualClock(),
  });
  return poller.poll(() => buildTestState({ proposals: { [proposal.id]: proposal } }));
}

describe('proposal poller', () => {
  it("decides an investigation's or refinement's proposal from a reply on the item it is about", async () => {
    const refinement = buildProposal({ kind: 'refinement', subjectID: '1' });
    const events = await pollWith(refinement, [
      `The refinement finished; it waits for approval here or on #2.\n\n${PROPOSAL_COMMENT_MARKER}\n…`,
      '/reject the acceptance criteria miss the empty input',
    ]);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'proposalDecided',
        proposalID: '2',
        decision: 'reject',
        reason: 'the acceptance criteria miss the empty input',
        source: 'tracker',
      }),
    ]);
  });

  it("reads a plan's decision from its own item only, and a reply before the proposal comment is none", async () => {
    const plan = buildProposal({ subjectID: null });
    expect(await pollWith(plan, [`${PROPOSAL_COMMENT_MARKER}\n…`, '/accept'])).toEqual([]);
    const refinement = buildProposal({ kind: 'refinement', subjectID: '1' });
    expect(await pollWith(refinement, ['/accept', 'no proposal comment on this item yet'])).toEqual([]);
  });

  it("reads a plain reply on the proposal's own item as feedback, but not one on the item it is about", async () => {
    const plan = buildProposal({ subjectID: null });
    expect(await pollWith(plan, [], ['Split the parser into its own item', 'and name the files'])).toEqual([
      expect.objectContaining({
        type: 'proposalDecided',
        proposalID: '2',
        decision: 'reject',
        reason: 'Split the parser into its own item\n\nand name the files',
        feedback: true,
      }),
    ]);
    const refinement = buildProposal({ kind: 'refinement', subjectID: '1' });
    expect(
      await pollWith(refinement, [`${PROPOSAL_COMMENT_MARKER}\n…`, 'is this the same bug as #7?']),
    ).toEqual([]);
    expect(await pollWith(refinement, [], ['Also cover the empty input'])).toEqual([
      expect.objectContaining({ decision: 'reject', reason: 'Also cover the empty input', feedback: true }),
    ]);
    // A decided proposal is never read again (a restart included): its comments start nothing.
    const decided = buildProposal({ status: 'rejected', decidedAt: 5, decidedBy: 'ada', reason: 'x' });
    expect(await pollWith(decided, [], ['Split the parser into its own item'])).toEqual([]);
  });
});
