import { describe, expect, it } from 'vitest';
import { buildHandlerConfig, runHandlerAfterUpdate } from '../../../test/support/engine/index.ts';
import {
  buildImplementorRun,
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
} from '../../../test/support/shared/builders/index.ts';
import type {
  AgentFailureReason,
  EngineEvent,
  ImplementorFailed,
  ImplementorRequested,
  ModeResultApplied,
  Proposal,
  RefinementReport,
  WorkItem,
} from '../../domain/index.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { handleAutoRefinement } from './handle-auto-refinement.ts';

const on = buildHandlerConfig({ autoRefine: true });
const REFINE = [{ type: 'requestImplementorRun', workItemID: '7', mode: 'refine' }];

function vague(overrides: Partial<WorkItem> = {}): WorkItem {
  return buildWorkItem({ id: '7', status: 'needs-refinement', bodyHash: 'body-v1', ...overrides });
}

/** The item as a poll sees it again (first sighting after a restart, or a change). */
function seen(item: WorkItem, oldStatus: WorkItem['status'] | null = null): EngineEvent {
  return buildWorkItemChanged(item, oldStatus);
}

function refineRequested(at = 10): ImplementorRequested {
  return {
    type: 'implementorRequested',
    sessionID: `refine-${at}`,
    workItemID: '7',
    branchName: 'flotilla/7',
    mode: 'refine',
    at,
  };
}

function refineFailed(reason: AgentFailureReason, at = 10): ImplementorFailed {
  return {
    type: 'implementorFailed',
    sessionID: `refine-${at}`,
    workItemID: '7',
    branchName: 'flotilla/7',
    reason,
    error: reason === 'cancelled' ? 'cancelled: the control plane is stopping' : 'the agent gave up',
    logFilePath: null,
    usage: null,
    at: at + 1,
  };
}

function apply(state: EngineState, ...events: EngineEvent[]): EngineState {
  return events.reduce((current, event) => applyStateUpdate(current, event).state, state);
}

const REPORT: RefinementReport = {
  mode: 'refine',
  summary: 'Made precise.',
  title: null,
  body: 'Print `hello, <name>`.',
  acceptanceCriteria: ['prints hello, Ada'],
  files: ['src/greet.js'],
  size: 'low',
  labels: [],
};

function pendingProposal(): Proposal {
  return {
    id: '40',
    kind: 'refinement',
    status: 'pending',
    sessionID: 'refine-10',
    specSHAs: {},
    basePlannedSHAs: {},
    result: { role: 'planner', create: [], close: [], update: [] },
    revises: null,
    createdAt: 1,
    decidedAt: null,
    decidedBy: null,
    reason: null,
    subjectID: '7',
    report: REPORT,
  };
}

describe('handleAutoRefinement (issue #29: refine when needs-refinement or task:refinement)', () => {
  it('requests one refine run for an item that lands in needs-refinement; none when modes.refine.auto is off', () => {
    const before = buildTestState({ workItems: [vague({ status: 'in-progress' })] });
    const event = seen(vague(), 'in-progress');
    expect(runHandlerAfterUpdate(handleAutoRefinement, event, before, on)).toEqual(REFINE);
    expect(runHandlerAfterUpdate(handleAutoRefinement, event, before, buildHandlerConfig())).toEqual([]);
    expect(
      runHandlerAfterUpdate(handleAutoRefinement, event, before, buildHandlerConfig({ autoRefine: false })),
    ).toEqual([]);
  });

  it('refines a task:refinement item (kind refinement) waiting in pending, not a task in pending', () => {
    const refinement = vague({ kind: 'refinement', status: 'pending' });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(refinement), buildTestState(), on)).toEqual(
      REFINE,
    );
    const task = vague({ status: 'pending' });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(task), buildTestState(), on)).toEqual([]);
  });

  it('leaves items a label already gives a mode, and questions or proposal items', () => {
    for (const item of [
      vague({ mode: 'investigate' }),
      vague({ mode: 'refine' }),
      vague({ kind: 'questions' }),
      vague({ kind: 'proposal' }),
    ])
      expect(runHandlerAfterUpdate(handleAutoRefinement, seen(item), buildTestState(), on)).toEqual([]);
  });

  it('refines a body version once: after its refine run was requested, seeing the item again asks nothing', () => {
    const requested = apply(buildTestState({ workItems: [vague()] }), refineRequested());
    expect(requested.refinedBodies).toEqual({ '7': ['body-v1'] });
    // The run ended (failed, asked, or proposed): the item still waits in needs-refinement.
    const ended = { ...requested, agentRuns: {} };
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague()), ended, on)).toEqual([]);
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague(), 'review'), ended, on)).toEqual([]);
  });

  it('refines again once a human edits the body (a new bodyHash)', () => {
    const refined = buildTestState({ workItems: [vague()], refinedBodies: { '7': ['body-v1'] } });
    const edited = vague({ bodyHash: 'body-v2' });
    expect(
      runHandlerAfterUpdate(handleAutoRefinement, seen(edited, 'needs-refinement'), refined, on),
    ).toEqual(REFINE);
  });

  it('never refines the body an applied refinement wrote (no refine → implement → no-changes loop)', () => {
    const applied: ModeResultApplied = {
      type: 'modeResultApplied',
      workItemID: '7',
      sessionID: 'refine-10',
      report: REPORT,
      createdIDs: [],
      at: 20,
      bodyHash: 'body-refined',
    };
    const state = apply(buildTestState({ workItems: [vague()] }), refineRequested(), applied);
    expect(state.refinedBodies['7']).toEqual(['body-v1', 'body-refined']);
    // Implemented, changed nothing: back in needs-refinement with the refined body.
    const back = vague({ bodyHash: 'body-refined' });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(back, 'in-progress'), state, on)).toEqual([]);
  });

  it('waits while its refinement proposal is pending, even with a new body', () => {
    const state = buildTestState({ workItems: [vague()], proposals: { '40': pendingProposal() } });
    const edited = vague({ bodyHash: 'body-v2' });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(edited, 'needs-refinement'), state, on)).toEqual(
      [],
    );
  });

  it('waits while a run holds the item or a session waits for answers', () => {
    const running = buildTestState({
      workItems: [vague()],
      agentRuns: [buildImplementorRun({ workItemID: '7', mode: 'refine' })],
    });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague()), running, on)).toEqual([]);
    const waiting = buildTestState({
      workItems: [vague()],
      waitingForInput: {
        '7': {
          workItemID: '7',
          role: 'implementor',
          sessionID: 's',
          sessionNumber: 1,
          revisionID: null,
          questions: ['Which name?'],
          session: { runtime: 'scripted', agentSessionID: 's', worktree: null, stateDir: '/s' },
          askedAt: 1,
          answers: null,
        },
      },
    });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague()), waiting, on)).toEqual([]);
  });

  it('a refine stopped from outside (cancelled, Ctrl-C) gives its version back; one failing on its own does not', () => {
    const started: EngineEvent = {
      type: 'implementorStarted',
      sessionID: 'refine-10',
      logFilePath: null,
      at: 10,
    };
    const stopped = apply(
      buildTestState({ workItems: [vague()] }),
      refineRequested(),
      started,
      refineFailed('cancelled'),
    );
    expect(stopped.refinedBodies).toEqual({});
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague()), stopped, on)).toEqual(REFINE);
    for (const reason of ['error', 'timeout'] as const) {
      const failed = apply(
        buildTestState({ workItems: [vague()] }),
        refineRequested(),
        started,
        refineFailed(reason),
      );
      expect(failed.refinedBodies).toEqual({ '7': ['body-v1'] });
      expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague()), failed, on)).toEqual([]);
    }
  });

  it('an answered refinement goes on as session 2 of the same version: nothing new recorded, still bounded', () => {
    const first = apply(buildTestState({ workItems: [vague()] }), refineRequested());
    const resumed = apply(first, { ...refineRequested(20), sessionNumber: 2 });
    expect(resumed.refinedBodies).toEqual({ '7': ['body-v1'] });
    const ended = { ...resumed, agentRuns: {} };
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(vague()), ended, on)).toEqual([]);
  });

  it('records an item without a bodyHash under the empty version: refined once', () => {
    const { bodyHash: _none, ...noHash } = vague();
    const state = apply(buildTestState({ workItems: [noHash] }), refineRequested());
    expect(state.refinedBodies).toEqual({ '7': [''] });
    expect(runHandlerAfterUpdate(handleAutoRefinement, seen(noHash), state, on)).toEqual([]);
  });
});
