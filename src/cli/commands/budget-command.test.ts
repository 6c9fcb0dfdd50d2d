import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { resolveFlotillaPaths } from '../../config/index.ts';
import { createBudgetLedgerRepository, openDatabase } from '../../storage/index.ts';
import { runFlotilla } from '../support/run-flotilla.ts';

let repo: TempGitRepo;
const flotilla = (args: string[]) => runFlotilla(repo.root, args);

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', {
    'README.md': '# sample\n',
    'flotilla.config.json': JSON.stringify({ budgets: { dailyUsd: 1, perItemUsd: 0.5 } }),
  });
});

afterEach(async () => {
  await repo.cleanup();
});

function recordSpend(workItemID: string, costUSD: number): void {
  const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
  const day = new Date().toISOString().slice(0, 10);
  createBudgetLedgerRepository(db).record({
    sessionID: `s-${workItemID}`,
    workItemID,
    role: 'implementor',
    runtime: 'claude',
    model: 'claude-opus-5-5',
    account: null,
    day,
    month: day.slice(0, 7),
    costUSD,
    inputTokens: 1,
    outputTokens: 1,
    ended: true,
    budgetStop: null,
    requestedAt: Date.now(),
    updatedAt: Date.now(),
  });
  db.close();
}

describe('flotilla budget', () => {
  it('prints spend against every cap, and a runtime override changes the cap in force', async () => {
    recordSpend('7', 0.6);
    recordSpend('8', 0.2);
    const json = await flotilla(['budget', '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.day).toMatchObject({ capUSD: 1, reached: false, runs: 2 });
    expect(report.day.spentUSD).toBeCloseTo(0.8, 9);
    expect(report.items[0]).toMatchObject({ workItemID: '7', reached: true, remainingUSD: 0 });

    expect((await flotilla(['budget', 'set', 'daily', '0.5'])).code).toBe(0);
    const text = await flotilla(['budget']);
    expect(text.stdout).toMatch(
      /daily \(\d{4}-\d\d-\d\d\)\s+\$0\.50\s+\$0\.80\s+\$0\.00\s+reached: dispatch paused until/,
    );
    expect(text.stdout).toContain('Over their item cap: #7 $0.60');
    expect((await flotilla(['budget', 'reset', 'daily'])).code).toBe(0);
    expect(JSON.parse((await flotilla(['budget', '--json'])).stdout).day.capUSD).toBe(1);
    // Five `flotilla` processes: on a loaded 2-core machine they outlast the default 20 s.
  }, 60_000);

  it('refuses an unknown cap or a bad amount with exit 2, changing nothing', async () => {
    const unknown = await flotilla(['budget', 'set', 'weekly', '5']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "unknown cap 'weekly'; expected one of: per-run, per-item, daily, monthly",
    );
    const bad = await flotilla(['budget', 'set', 'daily', '-3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "expected a positive number of US dollars (e.g. 20 or 7.5) or 'none', got '-3'",
    );
    expect(JSON.parse((await flotilla(['budget', '--json'])).stdout).overrides).toEqual({});
  }, 60_000);
});
