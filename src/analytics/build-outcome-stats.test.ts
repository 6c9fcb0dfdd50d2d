import { describe, expect, it } from 'vitest';
import { buildOutcomeStats } from './build-outcome-stats.ts';
import type { StatsItem, StatsRun } from './stats-records.ts';

/** Local time on 2026-11-<day> at <hour>:00, so day boundaries hold in any time zone. */
const at = (day: number, hour = 10, minute = 0) => new Date(2026, 10, day, hour, minute).getTime();
const NOW = at(22, 18);

let sequence = 0;
function run(fields: Partial<StatsRun> & Pick<StatsRun, 'role' | 'requestedAt'>): StatsRun {
  sequence += 1;
  return {
    sessionID: `s${sequence}`,
    workItemID: null,
    status: 'completed',
    failureReason: null,
    cancelRequestedBy: null,
    endedAt: fields.requestedAt + 60_000,
    costUSD: null,
    inputTokens: null,
    outputTokens: null,
    runtime: 'claude',
    model: null,
    account: null,
    estimatedFiles: null,
    changedFiles: null,
    ...fields,
  };
}

function item(fields: Partial<StatsItem> & Pick<StatsItem, 'workItemID'>): StatsItem {
  return {
    title: `item ${fields.workItemID}`,
    status: 'review',
    mergedAt: null,
    reviews: [],
    checks: [],
    ...fields,
  };
}

const runs: StatsRun[] = [
  run({
    role: 'planner',
    requestedAt: at(20, 9),
    costUSD: 0.05,
    inputTokens: 100,
    outputTokens: 10,
    model: 'opus',
  }),
  // Item 1: implemented, changes requested, reworked, approved, merged.
  run({
    role: 'implementor',
    workItemID: '1',
    requestedAt: at(20, 10),
    costUSD: 0.1,
    inputTokens: 1000,
    outputTokens: 200,
  }),
  run({
    role: 'reviewer',
    workItemID: '1',
    requestedAt: at(20, 11),
    costUSD: 0.02,
    inputTokens: 500,
    outputTokens: 50,
  }),
  run({
    role: 'implementor',
    workItemID: '1',
    requestedAt: at(21, 9),
    costUSD: 0.08,
    inputTokens: 800,
    outputTokens: 100,
  }),
  run({
    role: 'reviewer',
    workItemID: '1',
    requestedAt: at(21, 10),
    costUSD: 0.02,
    inputTokens: 400,
    outputTokens: 40,
  }),
  // Item 2: scripted runs, approved on the first review.
  run({ role: 'implementor', workItemID: '2', requestedAt: at(22, 9), costUSD: 0.003, runtime: 'scripted' }),
  run({ role: 'reviewer', workItemID: '2', requestedAt: at(22, 9, 30), costUSD: 0.001, runtime: 'scripted' }),
  // Failures on item 3.
  run({
    role: 'implementor',
    workItemID: '3',
    requestedAt: at(21, 12),
    status: 'failed',
    failureReason: 'validation',
    costUSD: 0.04,
  }),
  run({
    role: 'implementor',
    workItemID: '3',
    requestedAt: at(21, 13),
    status: 'timed-out',
    failureReason: 'timeout',
    costUSD: 0.03,
  }),
  run({
    role: 'implementor',
    workItemID: '3',
    requestedAt: at(22, 8),
    status: 'cancelled',
    failureReason: 'cancelled',
    cancelRequestedBy: 'shutdown',
  }),
  run({
    role: 'implementor',
    workItemID: '3',
    requestedAt: at(22, 8, 30),
    status: 'failed',
    failureReason: null,
    costUSD: 0.01,
  }),
];

const items: StatsItem[] = [
  item({
    workItemID: '1',
    status: 'closed',
    mergedAt: at(21, 15),
    reviews: [
      { state: 'DISMISSED', at: at(20, 11, 30) },
      { state: 'COMMENTED', at: at(20, 12) },
      { state: 'APPROVED', at: at(21, 10, 30) },
    ],
    checks: [
      { status: 'failure', at: at(20, 10, 40) },
      { status: 'success', at: at(21, 9, 40) },
    ],
  }),
  item({
    workItemID: '2',
    status: 'approved',
    reviews: [{ state: 'APPROVED', at: at(22, 10) }],
    checks: [
      { status: 'success', at: at(22, 9, 20) },
      { status: 'pending', at: at(22, 9, 25) },
    ],
  }),
  item({ workItemID: '3', status: 'needs-refinement' }),
  // Approved by a status edit, never by a review: not an outcome the reviews back.
  item({ workItemID: '4', status: 'approved' }),
];

describe('buildOutcomeStats', () => {
  const stats = buildOutcomeStats({ runs, items }, { since: null, now: NOW });

  it('costs and times each approved or merged item from all its runs', () => {
    expect(stats.items.map((entry) => entry.workItemID)).toEqual(['1', '2']);
    const [first, second] = stats.items;
    expect(first).toMatchObject({
      outcome: 'merged',
      runs: 4,
      firstRunAt: new Date(at(20, 10)).toISOString(),
      approvedAt: new Date(at(21, 10, 30)).toISOString(),
      mergedAt: new Date(at(21, 15)).toISOString(),
      toApprovalMs: at(21, 10, 30) - at(20, 10),
      toMergeMs: at(21, 15) - at(20, 10),
      reviewRounds: 2,
      firstPassApproved: false,
      checkRounds: 2,
      checkFailures: 1,
      scriptedCostUSD: 0,
    });
    expect(first?.costUSD).toBeCloseTo(0.22, 10);
    expect(second).toMatchObject({
      outcome: 'approved',
      mergedAt: null,
      toMergeMs: null,
      costUSD: 0,
      reviewRounds: 1,
      firstPassApproved: true,
      checkRounds: 1,
      checkFailures: 0,
    });
    expect(second?.scriptedCostUSD).toBeCloseTo(0.004, 10);
  });

  it('totals the runs, leaving scripted cost out of the spend, and the per-item figures', () => {
    const { totals } = stats;
    expect(totals).toMatchObject({
      runs: 11,
      failedRuns: 3,
      stoppedRuns: 1,
      inputTokens: 2800,
      outputTokens: 400,
      itemsDone: 2,
      itemsMerged: 1,
      firstPassApproved: 1,
      reviewedItems: 2,
      firstPassApprovalRate: 0.5,
      reviewRoundsPerItem: 1.5,
      checkRoundsPerItem: 1.5,
      medianToApprovalMs: (at(21, 10, 30) - at(20, 10) + (at(22, 10) - at(22, 9))) / 2,
    });
    expect(totals.costUSD).toBeCloseTo(0.05 + 0.22 + 0.08, 10);
    expect(totals.scriptedCostUSD).toBeCloseTo(0.004, 10);
    expect(totals.costPerItemUSD).toBeCloseTo(0.11, 10);
  });

  it('groups failures by reason; a shutdown cancel is a stop, not a failure', () => {
    expect(stats.failures.map(({ reason, runs: count }) => [reason, count])).toEqual([
      ['error', 1],
      ['timeout', 1],
      ['validation', 1],
    ]);
    expect(stats.failures.find((group) => group.reason === 'validation')?.costUSD).toBeCloseTo(0.04, 10);
    expect(stats.stopped.map(({ reason, runs: count }) => [reason, count])).toEqual([['shutdown', 1]]);
  });

  it('keeps runs stopped by limits, budget caps or an unavailable runtime out of the failed runs', () => {
    const stopped = [
      run({
        role: 'implementor',
        workItemID: '5',
        requestedAt: at(22, 9),
        status: 'failed',
        failureReason: 'usage-limit',
      }),
      run({
        role: 'implementor',
        workItemID: '5',
        requestedAt: at(22, 10),
        status: 'failed',
        failureReason: 'usage-limit',
      }),
      run({
        role: 'reviewer',
        workItemID: '5',
        requestedAt: at(22, 11),
        status: 'failed',
        failureReason: 'rate-limit',
      }),
      run({ role: 'planner', requestedAt: at(22, 12), status: 'failed', failureReason: 'overloaded' }),
      run({
        role: 'implementor',
        workItemID: '6',
        requestedAt: at(22, 13),
        status: 'cancelled',
        failureReason: 'budget',
        costUSD: 0.5,
      }),
      run({
        role: 'implementor',
        workItemID: '7',
        requestedAt: at(22, 14),
        status: 'failed',
        failureReason: 'unavailable',
      }),
      run({
        role: 'implementor',
        workItemID: '7',
        requestedAt: at(22, 15),
        status: 'failed',
        failureReason: 'error',
      }),
    ];
    const result = buildOutcomeStats({ runs: stopped, items: [] }, { since: null, now: NOW });
    expect(result.totals).toMatchObject({ runs: 7, failedRuns: 1, stoppedRuns: 6 });
    expect(result.failures.map(({ reason, runs: count }) => [reason, count])).toEqual([['error', 1]]);
    expect(result.stopped.map(({ reason, runs: count }) => [reason, count])).toEqual([
      ['usage-limit', 2],
      ['budget', 1],
      ['overloaded', 1],
      ['rate-limit', 1],
      ['unavailable', 1],
    ]);
    expect(result.stopped.find((group) => group.reason === 'budget')?.costUSD).toBe(0.5);
    expect(result.trend.at(-1)).toMatchObject({ runs: 7, failedRuns: 1, stoppedRuns: 6 });
  });

  it('splits spend by role, runtime, model and account; unrecorded ones under null', () => {
    expect(stats.spend.byRole.map((group) => [group.key, group.runs])).toEqual([
      ['implementor', 7],
      ['planner', 1],
      ['reviewer', 3],
    ]);
    expect(stats.spend.byRuntime.map((group) => [group.key, group.runs])).toEqual([
      ['claude', 9],
      ['scripted', 2],
    ]);
    expect(stats.spend.byRuntime[1]).toMatchObject({ costUSD: 0, inputTokens: 0 });
    expect(stats.spend.byModel.map((group) => [group.key, group.runs])).toEqual([
      [null, 10],
      ['opus', 1],
    ]);
    expect(stats.spend.byAccount).toHaveLength(1);
    expect(stats.spend.byAccount[0]).toMatchObject({
      key: null,
      runs: 11,
      inputTokens: 2800,
      outputTokens: 400,
    });
    for (const groups of Object.values(stats.spend)) {
      const total = groups.reduce((sum, group) => sum + group.costUSD, 0);
      expect(total).toBeCloseTo(stats.totals.costUSD, 10);
    }
  });

  it('gives one trend row per local day whose figures add up to the totals', () => {
    expect(stats.trend.map((day) => day.day)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(
      stats.trend.map(({ runs: count, failedRuns, stoppedRuns, itemsDone, itemsMerged }) => [
        count,
        failedRuns,
        stoppedRuns,
        itemsDone,
        itemsMerged,
      ]),
    ).toEqual([
      [3, 0, 0, 0, 0],
      [4, 2, 0, 1, 1],
      [4, 1, 1, 1, 0],
    ]);
    expect(stats.trend.reduce((sum, day) => sum + day.costUSD, 0)).toBeCloseTo(stats.totals.costUSD, 10);
    expect(stats.trend.reduce((sum, day) => sum + day.scriptedCostUSD, 0)).toBeCloseTo(0.004, 10);
  });

  it('counts runs requested since the start of the window, and items done in it at their whole cost', () => {
    const since = at(21, 0, 0);
    const windowed = buildOutcomeStats({ runs, items }, { since, now: NOW });
    expect(windowed.since).toBe(new Date(since).toISOString());
    expect(windowed.totals.runs).toBe(8);
    expect(windowed.totals.costUSD).toBeCloseTo(0.08 + 0.02 + 0.04 + 0.03 + 0.01, 10);
    expect(windowed.items.map((entry) => [entry.workItemID, entry.runs])).toEqual([
      ['1', 4],
      ['2', 2],
    ]);
    expect(windowed.items[0]?.costUSD).toBeCloseTo(0.22, 10);
    expect(windowed.trend.map((day) => day.day)).toEqual(['2026-11-21', '2026-11-22']);
    const later = buildOutcomeStats({ runs, items }, { since: at(22, 0, 0), now: NOW });
    expect(later.items.map((entry) => entry.workItemID)).toEqual(['2']);
  });

  it('counts a merge without an approving review, outside the first-pass rate', () => {
    const merged = item({ workItemID: '9', status: 'closed', mergedAt: at(21, 12) });
    const result = buildOutcomeStats(
      {
        runs: [run({ role: 'implementor', workItemID: '9', requestedAt: at(21, 11), costUSD: 0.5 })],
        items: [merged],
      },
      { since: null, now: NOW },
    );
    expect(result.items[0]).toMatchObject({
      outcome: 'merged',
      approvedAt: null,
      toApprovalMs: null,
      reviewRounds: 0,
      costUSD: 0.5,
    });
    expect(result.totals).toMatchObject({
      itemsDone: 1,
      reviewedItems: 0,
      firstPassApprovalRate: null,
      medianToApprovalMs: null,
    });
  });

  it('has nothing to say about nothing: zero totals, null rates, empty days in a window', () => {
    const empty = buildOutcomeStats({ runs: [], items: [] }, { since: null, now: NOW });
    expect(empty.totals).toMatchObject({
      runs: 0,
      costUSD: 0,
      itemsDone: 0,
      firstPassApprovalRate: null,
      costPerItemUSD: null,
    });
    expect(empty.trend).toEqual([]);
    expect(empty.failures).toEqual([]);
    const week = buildOutcomeStats({ runs: [], items: [] }, { since: at(16, 0, 0), now: NOW });
    expect(week.trend).toHaveLength(7);
    expect(week.trend.every((day) => day.runs === 0 && day.costUSD === 0)).toBe(true);
  });
});
