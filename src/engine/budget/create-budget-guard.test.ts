import { describe, expect, it } from 'vitest';
import { type BudgetCaps, NO_BUDGET_CAPS } from '../../domain/index.ts';
import type { Clock } from '../engine-config.ts';
import type { BudgetCapOverrides, BudgetLedger, SpendFilter } from './budget-ledger.ts';
import { createBudgetGuard } from './create-budget-guard.ts';

/** A ledger of recorded runs (previous processes) in memory. */
function fakeLedger(
  rows: { sessionID: string; day: string; workItemID: string | null; cost: number }[] = [],
) {
  const overrides: BudgetCapOverrides = {};
  const ledger: BudgetLedger & { overrides: BudgetCapOverrides } = {
    overrides,
    spentUSD(filter: SpendFilter, exclude) {
      return rows
        .filter((row) => !exclude.includes(row.sessionID))
        .filter((row) => filter.day === undefined || row.day === filter.day)
        .filter((row) => filter.month === undefined || row.day.startsWith(filter.month))
        .filter((row) => filter.workItemID === undefined || row.workItemID === filter.workItemID)
        .reduce((sum, row) => sum + row.cost, 0);
    },
    recentRunCosts: () => rows.map((row) => row.cost),
    capOverrides: () => overrides,
  };
  return ledger;
}

const NOON = Date.parse('2026-11-23T12:00:00Z');
const clockAt = (time: { now: number }): Clock => ({
  now: () => time.now,
  setTimeout: () => null,
  clearTimeout: () => {},
});
const implement = (workItemID: string) => ({ type: 'requestImplementorRun' as const, workItemID });
const caps = (overrides: Partial<BudgetCaps>): BudgetCaps => ({ ...NO_BUDGET_CAPS, ...overrides });

describe('createBudgetGuard', () => {
  it('admits a run with its role’s per-run cap when every budget covers it', () => {
    const guard = createBudgetGuard(
      { caps: caps({ perRunUsd: 2, perRole: { implementor: 3 } }), ledger: fakeLedger() },
      clockAt({ now: NOON }),
    );
    expect(guard.admit(implement('1'))).toEqual({ ok: true, maxBudgetUsd: 3, events: [] });
  });

  it('pauses until the next day when the day’s remaining budget cannot cover the estimate, once', () => {
    const ledger = fakeLedger([{ sessionID: 'old', day: '2026-11-23', workItemID: '9', cost: 9.5 }]);
    const time = { now: NOON };
    const guard = createBudgetGuard(
      { caps: caps({ dailyUsd: 10 }), ledger, estimateFloorUsd: 1, recheckMs: 5_000 },
      clockAt(time),
    );
    const first = guard.admit(implement('1'));
    expect(first).toMatchObject({ ok: false, retryAt: NOON + 5_000 });
    expect(first.events).toEqual([
      {
        type: 'budgetPauseChanged',
        pause: {
          period: 'day',
          spentUSD: 9.5,
          capUSD: 10,
          resumesAt: Date.parse('2026-11-24T00:00:00Z'),
          since: NOON,
        },
        at: NOON,
      },
    ]);
    expect(guard.admit(implement('2')).events).toEqual([]);
    // The next day, or a raised cap: admitted, and the pause ends.
    ledger.overrides.dailyUsd = 20;
    expect(guard.admit(implement('1'))).toMatchObject({
      ok: true,
      events: [{ type: 'budgetPauseChanged', pause: null }],
    });
  });

  it('counts days in the configured time zone', () => {
    const ledger = fakeLedger([{ sessionID: 'old', day: '2026-11-23', workItemID: null, cost: 10 }]);
    // 23:30 UTC on the 23rd is already the 24th in Paris: a new day there.
    const late = { now: Date.parse('2026-11-23T23:30:00Z') };
    const paris = createBudgetGuard(
      { caps: caps({ dailyUsd: 10 }), ledger, timeZone: 'Europe/Paris' },
      clockAt(late),
    );
    expect(paris.admit(implement('1')).ok).toBe(true);
    const utc = createBudgetGuard({ caps: caps({ dailyUsd: 10 }), ledger }, clockAt(late));
    expect(utc.admit(implement('1')).ok).toBe(false);
  });

  it('refuses an item whose remaining budget cannot cover the estimate, for good, with the numbers', () => {
    const ledger = fakeLedger([{ sessionID: 'a', day: '2026-11-22', workItemID: '4', cost: 4.5 }]);
    const guard = createBudgetGuard(
      { caps: caps({ perItemUsd: 5 }), ledger, estimateFloorUsd: 0.8 },
      clockAt({ now: NOON }),
    );
    const verdict = guard.admit(implement('4'));
    expect(verdict).toMatchObject({ ok: false, retryAt: null });
    expect(verdict.events).toEqual([
      {
        type: 'workItemOverBudget',
        workItemID: '4',
        scope: 'item',
        role: 'implementor',
        spentUSD: 4.5,
        capUSD: 5,
        estimateUSD: 4.5,
        at: NOON,
      },
    ]);
    expect(guard.admit(implement('5')).ok).toBe(true);
  });

  it('stops a running run at its per-run, item and day caps, counting live usage once', () => {
    const ledger = fakeLedger([{ sessionID: 'old', day: '2026-11-23', workItemID: '1', cost: 1 }]);
    const guard = createBudgetGuard(
      { caps: caps({ perRunUsd: 3, perItemUsd: 4, dailyUsd: 5 }), ledger },
      clockAt({ now: NOON }),
    );
    guard.runStarted('s1', 'implementor', '1');
    expect(guard.reportUsage('s1', 2)).toBeNull();
    expect(guard.reportUsage('s1', 3)).toEqual({ scope: 'run', spentUSD: 3, capUSD: 3 });
    guard.runFinished('s1', 2.9);
    guard.runStarted('s2', 'reviewer', '1');
    // Item 1: $1 recorded + $2.90 (s1, ended, from memory) + $0.20 live.
    expect(guard.reportUsage('s2', 0.2)).toMatchObject({ scope: 'item', capUSD: 4 });
    guard.runFinished('s2', 0.2);
    guard.runStarted('s3', 'implementor', '2');
    // The day: $1 + $2.90 + $0.20 + $0.90.
    expect(guard.reportUsage('s3', 0.9)).toMatchObject({ scope: 'day', capUSD: 5 });
  });

  it('estimates from this process’s ended runs before the ledger has them', () => {
    const guard = createBudgetGuard(
      { caps: caps({ dailyUsd: 1 }), ledger: fakeLedger(), estimateFloorUsd: 0.01 },
      clockAt({ now: NOON }),
    );
    guard.runStarted('s1', 'implementor', '1');
    guard.runFinished('s1', 0.6);
    // $0.40 left, the last implementor run cost $0.60.
    expect(guard.admit(implement('2')).ok).toBe(false);
  });
});
