import { describe, expect, it } from 'vitest';
import {
  buildPipeline,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { describeIdleSummary } from './describe-idle-summary.ts';

const options = { idle: true, maxAttempts: 3 };

describe('describeIdleSummary', () => {
  it('says idle and exits 0 when nothing failed or waits on a human', () => {
    const state = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'closed' })] });
    expect(describeIdleSummary(state, options)).toEqual({
      line: 'idle',
      data: {
        type: 'idle',
        idle: true,
        errors: 0,
        waitingOnHuman: [],
        plannerOutOfAttempts: null,
        budgetPause: null,
        awaitingMerge: [],
      },
      exitCode: 0,
    });
  });

  it('gives approved items the next step, merging, still exiting 0, and says what the run cost', () => {
    const one = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'approved' })] });
    const summary = describeIdleSummary(one, { ...options, spend: '3 agent runs, $0.0042' });
    expect(summary.line).toBe(
      'idle — #1 approved, waiting for you to merge it: flotilla merge 1 — this run: 3 agent runs, $0.0042',
    );
    expect(summary.exitCode).toBe(0);
    const two = buildTestState({
      workItems: [
        buildWorkItem({ id: '10', status: 'approved' }),
        buildWorkItem({ id: '9', status: 'approved', title: 'Nine' }),
      ],
    });
    const both = describeIdleSummary(two, options);
    expect(both.line).toBe(
      'idle — 2 items approved, waiting for you to merge them: flotilla merge 9, flotilla merge 10',
    );
    expect(both.data.awaitingMerge).toEqual([
      { workItemID: '9', title: 'Nine' },
      { workItemID: '10', title: 'Work item 10' },
    ]);
  });

  it('names a budget pause and exits 1: the held requests wait for the next day or a raised cap', () => {
    const pause = {
      period: 'day' as const,
      spentUSD: 20.4,
      capUSD: 20,
      resumesAt: Date.UTC(2026, 10, 24),
      since: 0,
    };
    const summary = describeIdleSummary({ ...buildTestState({}), budgetPause: pause }, options);
    expect(summary.line).toBe(
      "idle — dispatch paused: day's budget $20.40 of $20.00 spent, resumes 2026-11-24 00:00 UTC (flotilla budget set daily <usd>)",
    );
    expect(summary.exitCode).toBe(1);
    expect(summary.data.budgetPause).toEqual(pause);
  });

  it('names the items waiting on a human and exits 1', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '1', title: 'Add greet', status: 'needs-refinement' }),
        buildWorkItem({ id: '2', title: 'Trim', status: 'review', linkedRevision: 'r2' }),
        buildWorkItem({ id: '3', title: 'Docs', status: 'blocked' }),
      ],
      revisions: [buildRevision({ id: 'r2', workItemID: '2', pipeline: buildPipeline('failure') })],
      checkRounds: { '1': 3 },
    });
    const summary = describeIdleSummary(state, options);
    expect(summary.line).toBe(
      'idle — waiting on a human: #1 "Add greet" needs-refinement (checks failed 3 times), #2 "Trim" in review with red checks, #3 "Docs" blocked',
    );
    expect(summary.data.waitingOnHuman.map((item) => [item.workItemID, item.reason])).toEqual([
      ['1', 'needs-refinement'],
      ['2', 'red-checks'],
      ['3', 'blocked'],
    ]);
    expect(summary.exitCode).toBe(1);
  });

  it('names a planner out of attempts and exits 1', () => {
    const state = buildTestState({
      failures: {
        planner: {
          attempts: 3,
          lastReason: 'error',
          lastError: 'Not logged in · Please run /login\nmore',
          lastFailedAt: 1,
          lastSessionID: 's',
        },
      },
    });
    const summary = describeIdleSummary(state, options);
    expect(summary.line).toBe(
      'idle — waiting on a human: the planner failed all 3 attempts (Not logged in · Please run /login)',
    );
    expect(summary.data.plannerOutOfAttempts).toEqual({
      attempts: 3,
      lastError: 'Not logged in · Please run /login\nmore',
    });
    expect(summary.exitCode).toBe(1);
  });

  it('exits 1 when errors were recorded or it stopped before idle', () => {
    const withError = buildTestState({
      errors: [{ at: 1, source: 'command-executor', message: 'x failed', event: null }],
    });
    expect(describeIdleSummary(withError, options)).toMatchObject({
      line: 'idle with 1 error(s) recorded',
      exitCode: 1,
    });
    expect(describeIdleSummary(buildTestState(), { ...options, idle: false })).toMatchObject({
      line: 'stopped before idle',
      exitCode: 1,
    });
  });
});
