import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import { buildPlannerResult } from '../../../test/support/shared/builders/index.ts';
import { PROPOSAL_COMMENT_MARKER, type ProposePlan, parseProposalData } from '../../domain/index.ts';

const command: ProposePlan = {
  type: 'proposePlan',
  sessionID: 'p1',
  result: buildPlannerResult(),
  specSHAs: { 'docs/specs/a.md': 'sha-a2' },
  basePlannedSHAs: { 'docs/specs/a.md': 'sha-a1' },
  revises: null,
};

describe('proposePlan through the command executor', () => {
  it('creates nothing of the plan: one task:proposal item, waiting, with the plan in its comment', async () => {
    const { executor, provider, snapshot } = createExecutorFixture();
    const events = await executor.execute(command, await snapshot());
    const items = await provider.workItemReader.listWorkItems();
    expect(items).toMatchObject([
      { title: 'Plan proposal: docs/specs/a.md', kind: 'proposal', status: 'waiting-for-input' },
    ]);
    const id = items[0]?.id ?? '';
    const comments = (await provider.workItemReader.listComments?.(id)) ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body.startsWith(PROPOSAL_COMMENT_MARKER)).toBe(true);
    expect(parseProposalData(comments[0]?.body ?? '')?.result).toEqual(command.result);
    expect(events.map((event) => event.type)).toEqual(['workItemChanged', 'proposalCreated']);
    expect(events[1]).toMatchObject({
      proposal: {
        id,
        status: 'pending',
        specSHAs: command.specSHAs,
        basePlannedSHAs: command.basePlannedSHAs,
      },
    });
  });

  it('refuses a plan applyPlannerResult would refuse, storing and posting nothing', async () => {
    const { executor, provider, snapshot } = createExecutorFixture();
    const bad = { ...command, result: buildPlannerResult({ close: ['99'] }) };
    const events = await executor.execute(bad, await snapshot());
    expect(events).toMatchObject([
      {
        type: 'commandFailed',
        error: 'planner result rejected, nothing proposed: work item #99 is not known',
      },
    ]);
    expect(await provider.workItemReader.listWorkItems()).toEqual([]);
  });

  it('markProposalStale closes a pending proposal’s item with the reason', async () => {
    const { executor, provider, snapshot } = createExecutorFixture();
    const created = await executor.execute(command, await snapshot());
    const proposal = created[1]?.type === 'proposalCreated' ? created[1].proposal : null;
    if (proposal === null) throw new Error('no proposal');
    const state = { ...(await snapshot()), proposals: { [proposal.id]: proposal } };
    const events = await executor.execute(
      { type: 'markProposalStale', proposalID: proposal.id, reason: 'a spec changed', restorePlanned: true },
      state,
    );
    expect(events.map((event) => event.type)).toEqual(['workItemChanged', 'proposalStale']);
    expect((await provider.workItemReader.getWorkItem(proposal.id))?.status).toBe('closed');
    const comments = (await provider.workItemReader.listComments?.(proposal.id)) ?? [];
    expect(comments.at(-1)?.body).toContain('This proposal is stale: a spec changed.');
  });
});
