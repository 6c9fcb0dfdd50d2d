import { describe, expect, it } from 'vitest';
import {
  buildHandlerConfig,
  buildSampleEventList,
  buildSampleEvents,
  buildSampleState,
  runHandlerAfterUpdate,
  SAMPLE_IDS,
} from '../../../test/support/engine/index.ts';
import {
  buildPlannerResult,
  buildPlannerRun,
  buildSpec,
  buildSpecChanged,
  buildTestState,
} from '../../../test/support/shared/builders/index.ts';
import type { EngineCommand, EngineEventType, PlannerFailed } from '../../domain/index.ts';
import type { FailureRecord } from '../state-store/engine-state.ts';
import { handlePlanning } from './handle-planning.ts';

describe('handlePlanning on every sample event', () => {
  const result = buildSampleEvents().plannerCompleted.result;
  const expected: Partial<Record<EngineEventType, EngineCommand[]>> = {
    // specChanged: the edit makes the pending proposal stale, and planning is asked for (the guard refuses it
    // while the sample state's two planner runs are active).
    specChanged: [
      {
        type: 'markProposalStale',
        proposalID: 'wi-proposal',
        reason: `the approved specs changed while it waited (\`${SAMPLE_IDS.specPath}\`)`,
        restorePlanned: true,
      },
      {
        type: 'requestPlannerRun',
        specPaths: [SAMPLE_IDS.specPath],
        specSHAs: { [SAMPLE_IDS.specPath]: SAMPLE_IDS.editedSpecSHA },
      },
    ],
    // plannerCompleted: the planner was given the current SHA, so nothing is left to plan.
    plannerCompleted: [{ type: 'applyPlannerResult', result, sessionID: SAMPLE_IDS.sessions.runningPlanner }],
    // plannerFailed: first failure, and the spec still differs from what was last planned.
    plannerFailed: [
      {
        type: 'requestPlannerRun',
        specPaths: [SAMPLE_IDS.specPath],
        specSHAs: { [SAMPLE_IDS.specPath]: SAMPLE_IDS.currentSpecSHA },
      },
    ],
  };

  it.each(buildSampleEventList())('$type', (event) => {
    expect(runHandlerAfterUpdate(handlePlanning, event, buildSampleState())).toEqual(
      expected[event.type] ?? [],
    );
  });
});

describe('handlePlanning on specChanged', () => {
  it('requests one planner run with every approved spec (planned or not) at its current SHA', () => {
    const before = buildTestState({
      specs: [
        buildSpec({ filePath: 'c.md', blobSHA: 'c1' }),
        buildSpec({ filePath: 'a.md', blobSHA: 'a1' }),
        buildSpec({ filePath: 'draft.md', blobSHA: 'd1', frontmatterStatus: 'draft' }),
      ],
      lastPlannedSHAs: { 'a.md': 'a1' },
    });
    const event = buildSpecChanged(buildSpec({ filePath: 'b.md', blobSHA: 'b1' }), 'added');
    expect(runHandlerAfterUpdate(handlePlanning, event, before)).toEqual([
      {
        type: 'requestPlannerRun',
        specPaths: ['a.md', 'b.md', 'c.md'],
        specSHAs: { 'a.md': 'a1', 'b.md': 'b1', 'c.md': 'c1' },
      },
    ]);
  });

  it('requests planning on any spec change while another approved spec still needs it', () => {
    const before = buildTestState({
      specs: [buildSpec({ filePath: 'a.md', blobSHA: 'a2' })],
      lastPlannedSHAs: {},
    });
    const event = buildSpecChanged(buildSpec({ filePath: 'notes.md', frontmatterStatus: 'draft' }), 'added');
    expect(runHandlerAfterUpdate(handlePlanning, event, before)).toEqual([
      { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 'a2' } },
    ]);
  });

  it('does nothing when every approved spec was planned at its current SHA', () => {
    const before = buildTestState({
      specs: [buildSpec({ filePath: 'a.md', blobSHA: 'a1' })],
      lastPlannedSHAs: { 'a.md': 'a1' },
    });
    const event = buildSpecChanged(buildSpec({ filePath: 'b.md', frontmatterStatus: 'draft' }), 'added');
    expect(runHandlerAfterUpdate(handlePlanning, event, before)).toEqual([]);
  });

  it('does nothing when the changed spec is now a draft and nothing else needs planning', () => {
    const before = buildTestState({
      specs: [buildSpec({ filePath: 'a.md', blobSHA: 'a1' })],
      lastPlannedSHAs: {},
    });
    const event = buildSpecChanged(
      buildSpec({ filePath: 'a.md', blobSHA: 'a2', frontmatterStatus: 'draft' }),
    );
    expect(runHandlerAfterUpdate(handlePlanning, event, before)).toEqual([]);
  });

  it('does nothing when the only spec needing planning was removed', () => {
    const before = buildTestState({ specs: [buildSpec({ filePath: 'a.md' })], lastPlannedSHAs: {} });
    expect(
      runHandlerAfterUpdate(
        handlePlanning,
        buildSpecChanged(buildSpec({ filePath: 'a.md' }), 'removed'),
        before,
      ),
    ).toEqual([]);
  });

  it.each(['requested', 'running'] as const)('does nothing while a planner run is %s', (status) => {
    const before = buildTestState({ agentRuns: [buildPlannerRun({ status })] });
    expect(
      runHandlerAfterUpdate(handlePlanning, buildSpecChanged(buildSpec({ blobSHA: 'new' })), before),
    ).toEqual([]);
  });

  it.each(['completed', 'failed', 'timed-out', 'cancelled'] as const)(
    'plans again after a %s planner run',
    (status) => {
      const before = buildTestState({ agentRuns: [buildPlannerRun({ status })] });
      expect(
        runHandlerAfterUpdate(handlePlanning, buildSpecChanged(buildSpec({ blobSHA: 'new' })), before),
      ).toEqual([
        {
          type: 'requestPlannerRun',
          specPaths: ['docs/specs/alpha.md'],
          specSHAs: { 'docs/specs/alpha.md': 'new' },
        },
      ]);
    },
  );
});

describe('handlePlanning on plannerCompleted', () => {
  const completed = (result = buildPlannerResult()) => ({
    ...buildSampleEvents().plannerCompleted,
    sessionID: 'p-1',
    result,
  });

  it('applies the result and stops when everything given was planned', () => {
    const before = buildTestState({
      specs: [buildSpec({ filePath: 'a.md', blobSHA: 'a1' })],
      agentRuns: [buildPlannerRun({ sessionID: 'p-1', specPaths: ['a.md'], specSHAs: { 'a.md': 'a1' } })],
    });
    const result = buildPlannerResult({ close: ['wi-9'] });
    expect(runHandlerAfterUpdate(handlePlanning, completed(result), before)).toEqual([
      { type: 'applyPlannerResult', result, sessionID: 'p-1' },
    ]);
  });

  it('applies the result and plans again when a spec changed while the planner ran', () => {
    const before = buildTestState({
      specs: [buildSpec({ filePath: 'a.md', blobSHA: 'a2' }), buildSpec({ filePath: 'b.md', blobSHA: 'b1' })],
      agentRuns: [
        buildPlannerRun({
          sessionID: 'p-1',
          specPaths: ['a.md', 'b.md'],
          specSHAs: { 'a.md': 'a1', 'b.md': 'b1' },
        }),
      ],
    });
    const result = buildPlannerResult();
    expect(runHandlerAfterUpdate(handlePlanning, completed(result), before)).toEqual([
      { type: 'applyPlannerResult', result, sessionID: 'p-1' },
      { type: 'requestPlannerRun', specPaths: ['a.md', 'b.md'], specSHAs: { 'a.md': 'a2', 'b.md': 'b1' } },
    ]);
  });

  it('plans again when a spec was approved while the planner ran', () => {
    const before = buildTestState({
      specs: [
        buildSpec({ filePath: 'a.md', blobSHA: 'a1' }),
        buildSpec({ filePath: 'new.md', blobSHA: 'n1' }),
      ],
      agentRuns: [buildPlannerRun({ sessionID: 'p-1', specPaths: ['a.md'], specSHAs: { 'a.md': 'a1' } })],
    });
    const commands = runHandlerAfterUpdate(handlePlanning, completed(), before);
    expect(commands.slice(1)).toEqual([
      {
        type: 'requestPlannerRun',
        specPaths: ['a.md', 'new.md'],
        specSHAs: { 'a.md': 'a1', 'new.md': 'n1' },
      },
    ]);
  });
});

describe('handlePlanning on plannerFailed', () => {
  const spec = buildSpec({ filePath: 'a.md', blobSHA: 'a2' });
  const failure = (attempts: number): FailureRecord => ({
    attempts,
    lastReason: 'error',
    lastError: 'x',
    lastFailedAt: 1,
    lastSessionID: 'p-0',
  });
  const failed = (reason: PlannerFailed['reason']): PlannerFailed => ({
    ...buildSampleEvents().plannerFailed,
    sessionID: 'p-1',
    reason,
  });
  const stateWith = (previousAttempts: number) =>
    buildTestState({
      specs: [spec],
      lastPlannedSHAs: { 'a.md': 'a1' },
      agentRuns: [buildPlannerRun({ sessionID: 'p-1', specPaths: ['a.md'], specSHAs: { 'a.md': 'a2' } })],
      failures: previousAttempts === 0 ? {} : { planner: failure(previousAttempts) },
    });
  const retry: EngineCommand = { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 'a2' } };

  it.each([
    ['error', 0],
    ['error', 1],
    ['timeout', 0],
    ['timeout', 1],
  ] as const)('retries after a %s while attempts stay below the cap (%i before)', (reason, previous) => {
    expect(runHandlerAfterUpdate(handlePlanning, failed(reason), stateWith(previous))).toEqual([retry]);
  });

  it.each(['error', 'timeout'] as const)('gives up after a %s on the last allowed attempt', (reason) => {
    expect(runHandlerAfterUpdate(handlePlanning, failed(reason), stateWith(2))).toEqual([]);
  });

  it('follows the configured attempt cap', () => {
    expect(
      runHandlerAfterUpdate(
        handlePlanning,
        failed('error'),
        stateWith(0),
        buildHandlerConfig({ maxAttempts: 1 }),
      ),
    ).toEqual([]);
    expect(
      runHandlerAfterUpdate(
        handlePlanning,
        failed('error'),
        stateWith(3),
        buildHandlerConfig({ maxAttempts: 5 }),
      ),
    ).toEqual([retry]);
  });

  it('does not retry a credentials failure (every attempt would fail alike)', () => {
    const event = { ...failed('error'), error: 'credentials: the planner could not authenticate …' };
    expect(runHandlerAfterUpdate(handlePlanning, event, stateWith(0))).toEqual([]);
  });

  it('does not retry a scenario mistake or a missing agent file (every attempt would fail alike)', () => {
    for (const error of [
      'the planner session ended with an error: API Error: 400 [flotilla model-server] script exhausted: …',
      'provisioning failed: Cannot read the planner agent definition /r/.claude/agents/planner.md: ENOENT',
    ]) {
      expect(runHandlerAfterUpdate(handlePlanning, { ...failed('error'), error }, stateWith(0))).toEqual([]);
    }
  });

  it('does not retry a cancelled run', () => {
    expect(runHandlerAfterUpdate(handlePlanning, failed('cancelled'), stateWith(0))).toEqual([]);
  });

  it('does not retry when nothing needs planning any more', () => {
    const before = { ...stateWith(0), specs: { 'a.md': { ...spec, frontmatterStatus: 'draft' as const } } };
    expect(runHandlerAfterUpdate(handlePlanning, failed('error'), before)).toEqual([]);
  });
});
