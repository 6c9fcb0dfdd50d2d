import { describe, expect, it } from 'vitest';
import { buildHandlerConfig, runHandlerAfterUpdate } from '../../../test/support/engine/index.ts';
import {
  buildPlannerResult,
  buildPlannerRun,
  buildSpec,
  buildSpecChanged,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import type { EngineEvent, PlannerCompleted, Proposal, ProposalDecided } from '../../domain/index.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { handlePlanning } from './handle-planning.ts';
import { handleProposals } from './handle-proposals.ts';

const SPEC = 'docs/specs/alpha.md';
const required = buildHandlerConfig({ approval: { plans: 'required' } });

function buildProposal(overrides: Partial<Proposal> = {}): Proposal {
  return {
    id: '40',
    kind: 'plan',
    status: 'pending',
    sessionID: 'planner-session-1',
    specSHAs: { [SPEC]: 'sha-2' },
    basePlannedSHAs: { [SPEC]: 'sha-1' },
    result: buildPlannerResult(),
    revises: null,
    createdAt: 1_000,
    decidedAt: null,
    decidedBy: null,
    reason: null,
    ...overrides,
  };
}

/** A spec planned at sha-1, then proposed at sha-2: the planned SHA shows the proposal's version. */
function withPendingProposal(overrides: Partial<Proposal> = {}): EngineState {
  return buildTestState({
    specs: [buildSpec({ filePath: SPEC, blobSHA: 'sha-2' })],
    lastPlannedSHAs: { [SPEC]: 'sha-2' },
    workItems: [buildWorkItem({ id: '40', kind: 'proposal', status: 'waiting-for-input' })],
    proposals: { '40': buildProposal(overrides) },
  });
}

function decided(decision: 'accept' | 'reject', reason: string | null = null): ProposalDecided {
  return {
    type: 'proposalDecided',
    proposalID: '40',
    decision,
    reason,
    author: 'ada',
    source: 'tracker',
    at: 5,
  };
}

describe('approval.plans: required — a completed plan becomes a proposal', () => {
  const run = buildPlannerRun({
    specPaths: [SPEC],
    specSHAs: { [SPEC]: 'sha-2' },
    plannedBefore: { [SPEC]: 'sha-1' },
  });
  const completed: PlannerCompleted = {
    type: 'plannerCompleted',
    sessionID: run.sessionID,
    specPaths: [SPEC],
    result: buildPlannerResult(),
    logFilePath: null,
    usage: null,
    at: 2,
  };
  const state = buildTestState({
    specs: [buildSpec({ filePath: SPEC, blobSHA: 'sha-2' })],
    lastPlannedSHAs: { [SPEC]: 'sha-1' },
    agentRuns: [run],
  });

  it('proposes instead of applying, with the SHAs planned before the run', () => {
    expect(runHandlerAfterUpdate(handlePlanning, completed, state, required)).toEqual([
      {
        type: 'proposePlan',
        sessionID: run.sessionID,
        result: completed.result,
        specSHAs: { [SPEC]: 'sha-2' },
        basePlannedSHAs: { [SPEC]: 'sha-1' },
        revises: null,
      },
    ]);
  });

  it('applies at once with approval auto (the default)', () => {
    expect(runHandlerAfterUpdate(handlePlanning, completed, state)).toEqual([
      { type: 'applyPlannerResult', result: completed.result, sessionID: completed.sessionID },
    ]);
  });

  it('replaces a pending proposal (never two): stale first, the planned SHAs kept', () => {
    const commands = runHandlerAfterUpdate(
      handlePlanning,
      completed,
      { ...state, proposals: { '40': buildProposal() } },
      required,
    );
    expect(commands.map((command) => command.type)).toEqual(['markProposalStale', 'proposePlan']);
    expect(commands[0]).toMatchObject({ proposalID: '40', restorePlanned: false });
  });

  it('records a requested run’s planned SHAs and a revision’s mode', () => {
    const { state: after } = applyStateUpdate(state, {
      type: 'plannerRequested',
      sessionID: 'planner-2',
      specPaths: [SPEC],
      specSHAs: { [SPEC]: 'sha-2' },
      revises: '40',
      at: 3,
    });
    expect(after.agentRuns['planner-2']).toMatchObject({
      plannedBefore: { [SPEC]: 'sha-1' },
      mode: 'plan-revision',
      revises: '40',
    });
  });
});

describe('a decision on the pending proposal', () => {
  it('accept: the stored plan is applied as an auto plan is, naming the proposal', () => {
    const before = withPendingProposal();
    expect(runHandlerAfterUpdate(handleProposals, decided('accept'), before)).toEqual([
      {
        type: 'applyPlannerResult',
        result: buildPlannerResult(),
        proposalID: '40',
        sessionID: before.proposals['40']?.sessionID,
      },
    ]);
    const { state } = applyStateUpdate(before, decided('accept'));
    expect(state.proposals['40']).toMatchObject({ status: 'accepted', decidedBy: 'ada', decidedAt: 5 });
    expect(state.lastPlannedSHAs).toEqual({ [SPEC]: 'sha-2' });
  });

  it('reject: the item is closed with the reason and a plan-revision run carries it and the plan', () => {
    const before = withPendingProposal();
    const commands = runHandlerAfterUpdate(handleProposals, decided('reject', 'too coarse'), before);
    expect(commands).toEqual([
      expect.objectContaining({ type: 'commentOnWorkItem', workItemID: '40' }),
      { type: 'transitionWorkItemStatus', workItemID: '40', newStatus: 'closed', cause: 'planner' },
      {
        type: 'requestPlannerRun',
        specPaths: [SPEC],
        specSHAs: { [SPEC]: 'sha-2' },
        revision: { proposalID: '40', reason: 'too coarse', previous: buildPlannerResult() },
      },
    ]);
    expect(commands[0]).toMatchObject({ body: expect.stringContaining('Rejected by ada: too coarse') });
    // The plan was never applied: the spec is planned at the version before it again.
    const { state } = applyStateUpdate(before, decided('reject', 'too coarse'));
    expect(state.lastPlannedSHAs).toEqual({ [SPEC]: 'sha-1' });
    expect(state.proposals['40']).toMatchObject({ status: 'rejected', reason: 'too coarse' });
  });

  it('feedback (a plain comment): revised exactly as a reasoned rejection, said as feedback', () => {
    const before = withPendingProposal();
    const feedback: ProposalDecided = {
      ...decided('reject', 'Split the parser into its own item'),
      feedback: true,
    };
    const commands = runHandlerAfterUpdate(handleProposals, feedback, before);
    expect(commands).toEqual([
      expect.objectContaining({ type: 'commentOnWorkItem', workItemID: '40' }),
      { type: 'transitionWorkItemStatus', workItemID: '40', newStatus: 'closed', cause: 'planner' },
      {
        type: 'requestPlannerRun',
        specPaths: [SPEC],
        specSHAs: { [SPEC]: 'sha-2' },
        revision: {
          proposalID: '40',
          reason: 'Split the parser into its own item',
          previous: buildPlannerResult(),
        },
      },
    ]);
    expect(commands[0]).toMatchObject({
      body: expect.stringContaining('Revised on feedback from ada: Split the parser into its own item.'),
    });
    const { state } = applyStateUpdate(before, feedback);
    expect(state.proposals['40']).toMatchObject({
      status: 'rejected',
      decidedBy: 'ada',
      reason: 'Split the parser into its own item',
    });
  });

  it('a second decision, or one for a decided proposal, changes nothing', () => {
    const before = withPendingProposal({ status: 'accepted', decidedAt: 4, decidedBy: 'bob' });
    const update = applyStateUpdate(before, decided('reject', 'late'));
    expect(update.state).toBe(before);
    expect(update.warnings).toHaveLength(1);
    expect(runHandlerAfterUpdate(handleProposals, decided('reject', 'late'), before)).toEqual([]);
  });

  it('a human closing the pending proposal’s item drops it (stale, planned SHAs restored)', () => {
    const before = withPendingProposal();
    const event: EngineEvent = {
      type: 'workItemChanged',
      workItemID: '40',
      workItem: buildWorkItem({ id: '40', kind: 'proposal', status: 'closed' }),
      oldStatus: 'waiting-for-input',
      newStatus: 'closed',
    };
    expect(runHandlerAfterUpdate(handleProposals, event, before)).toEqual([
      expect.objectContaining({ type: 'markProposalStale', proposalID: '40', restorePlanned: true }),
    ]);
  });
});

describe('a spec edited while its proposal waits', () => {
  it('makes the proposal stale (planned SHAs restored) and plans the new version', () => {
    const before = withPendingProposal();
    const edited = buildSpecChanged(buildSpec({ filePath: SPEC, blobSHA: 'sha-3' }));
    expect(runHandlerAfterUpdate(handlePlanning, edited, before, required)).toEqual([
      {
        type: 'markProposalStale',
        proposalID: '40',
        reason: `the approved specs changed while it waited (\`${SPEC}\`)`,
        restorePlanned: true,
      },
      { type: 'requestPlannerRun', specPaths: [SPEC], specSHAs: { [SPEC]: 'sha-3' } },
    ]);
    const { state } = applyStateUpdate(before, {
      type: 'proposalStale',
      proposalID: '40',
      reason: 'edited',
      restorePlanned: true,
      at: 6,
    });
    expect(state.lastPlannedSHAs).toEqual({ [SPEC]: 'sha-1' });
    expect(state.proposals['40']?.status).toBe('stale');
  });

  it('the same spec seen again (a restart) leaves it pending and plans nothing', () => {
    const before = withPendingProposal();
    const seen = buildSpecChanged(buildSpec({ filePath: SPEC, blobSHA: 'sha-2' }), 'added');
    expect(runHandlerAfterUpdate(handlePlanning, seen, before, required)).toEqual([]);
  });
});

describe('a rejected investigation or refinement (issue #29)', () => {
  const REPORT = {
    mode: 'refine' as const,
    summary: 'Made precise.',
    title: null,
    body: 'Print hello.',
    acceptanceCriteria: ['prints hello'],
    files: ['src/greet.js'],
    size: 'low' as const,
    labels: [],
  };
  const withModeProposal = (subjectStatus: 'needs-refinement' | 'pending') =>
    buildTestState({
      workItems: [
        buildWorkItem({ id: '40', kind: 'proposal', status: 'waiting-for-input' }),
        buildWorkItem({ id: '7', status: subjectStatus, mode: 'refine' }),
      ],
      proposals: { '40': buildProposal({ kind: 'refinement', subjectID: '7', report: REPORT }) },
    });

  it('with a reason, sends the item back to pending so its mode runs again with the reason', () => {
    const commands = runHandlerAfterUpdate(
      handleProposals,
      decided('reject', 'Name the files'),
      withModeProposal('needs-refinement'),
    );
    expect(commands).toContainEqual({
      type: 'transitionWorkItemStatus',
      workItemID: '7',
      newStatus: 'pending',
      cause: 'user',
    });
    expect(commands).toContainEqual(
      expect.objectContaining({
        type: 'commentOnWorkItem',
        workItemID: '7',
        body: expect.stringContaining('Name the files. The refinement runs again with this reason.'),
      }),
    );
  });

  it('feedback on its proposal item runs the mode again with it, as a reason does', () => {
    const commands = runHandlerAfterUpdate(
      handleProposals,
      { ...decided('reject', 'Cover the empty input'), feedback: true },
      withModeProposal('needs-refinement'),
    );
    expect(commands).toContainEqual({
      type: 'transitionWorkItemStatus',
      workItemID: '7',
      newStatus: 'pending',
      cause: 'user',
    });
    expect(commands).toContainEqual(
      expect.objectContaining({
        type: 'commentOnWorkItem',
        workItemID: '7',
        body: expect.stringContaining(
          'Revised on feedback from ada: Cover the empty input. The refinement runs',
        ),
      }),
    );
  });

  it('with a reason, refines an automatically refined item (no task:refine label) again where it waits', () => {
    const state = withModeProposal('needs-refinement');
    const item = state.workItems['7']!;
    const { mode: _label, ...unlabelled } = item;
    const commands = runHandlerAfterUpdate(handleProposals, decided('reject', 'Name the files'), {
      ...state,
      workItems: { ...state.workItems, '7': unlabelled },
    });
    expect(commands).toContainEqual({ type: 'requestImplementorRun', workItemID: '7', mode: 'refine' });
    // Pending would have it implemented as it is.
    expect(commands.filter((c) => c.type === 'transitionWorkItemStatus' && c.workItemID === '7')).toEqual([]);
  });

  it('without a reason, or once a human moved the item, leaves it to a human', () => {
    for (const [reason, status] of [
      [null, 'needs-refinement'],
      ['Name the files', 'pending'],
    ] as const) {
      const commands = runHandlerAfterUpdate(
        handleProposals,
        decided('reject', reason),
        withModeProposal(status),
      );
      expect(commands.filter((c) => c.type === 'transitionWorkItemStatus' && c.workItemID === '7')).toEqual(
        [],
      );
    }
  });
});
