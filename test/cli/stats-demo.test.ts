import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeStats } from '../../src/analytics/build-outcome-stats.ts';
import type { DemoOutcome } from '../../src/app/demo/demo-options.ts';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';

/**
 * `flotilla stats` on what a real loop recorded: the scripted demo (real Claude Agent SDK, local tracker,
 * real SQLite, real branches) runs once for the file, item #1 is merged, and the figures must add up to the
 * runs the engine recorded.
 */
let demo: DemoOutcome;
let stats: OutcomeStats;
const costOf = (runs: DemoOutcome['runs']) => runs.reduce((sum, run) => sum + (run.usage?.costUSD ?? 0), 0);
const itemRuns = (id: string) => demo.runs.filter((run) => run.role !== 'planner' && run.workItemID === id);

beforeAll(async () => {
  const lines: string[] = [];
  demo = await runDemo({ keep: true, print: (line) => lines.push(line), logger: createRecordingLogger() });
  expect(demo.ok, lines.join('\n')).toBe(true);
  const merged = await runFlotillaInProcess(demo.repoRoot, ['merge', '1']);
  expect(merged.code, merged.stderr).toBe(0);
  const result = await runFlotillaInProcess(demo.repoRoot, ['stats', '--since', 'all', '--json']);
  expect(result.code, result.stderr).toBe(0);
  stats = JSON.parse(result.stdout);
}, 240_000);

afterAll(async () => {
  if (demo) await rm(demo.repoRoot, { recursive: true, force: true });
});

describe('flotilla stats after the demo loop', () => {
  it('totals every recorded run, all of it scripted cost kept out of the spend', () => {
    expect(demo.runs).toHaveLength(7);
    expect(stats.totals).toMatchObject({ runs: 7, failedRuns: 0, costUSD: 0 });
    expect(stats.totals.scriptedCostUSD).toBeGreaterThan(0);
    expect(stats.totals.scriptedCostUSD).toBeCloseTo(costOf(demo.runs), 10);
    expect(stats.totals.inputTokens).toBe(
      demo.runs.reduce((sum, run) => sum + (run.usage?.inputTokens ?? 0), 0),
    );
    expect(stats.failures).toEqual([]);
    expect(stats.spend.byRuntime.map((group) => [group.key, group.runs])).toEqual([['scripted', 7]]);
    expect(Object.fromEntries(stats.spend.byRole.map((group) => [group.key, group.runs]))).toEqual({
      planner: 1,
      implementor: 3,
      reviewer: 3,
    });
    // The model each run's stream named, from the budget ledger: every run has one.
    expect(stats.spend.byModel.reduce((sum, group) => sum + group.runs, 0)).toBe(7);
    expect(stats.spend.byModel.map((group) => group.key)).not.toContain(null);
    expect(stats.trend.reduce((sum, day) => sum + day.runs, 0)).toBe(7);
    expect(stats.trend.reduce((sum, day) => sum + day.scriptedCostUSD, 0)).toBeCloseTo(costOf(demo.runs), 10);
  });

  it('costs and counts the rounds of each item: #1 reworked once then merged, #2 approved first time', () => {
    const [first, second] = stats.items;
    expect(first).toMatchObject({
      workItemID: '1',
      outcome: 'merged',
      runs: 4,
      reviewRounds: 2,
      firstPassApproved: false,
      checkRounds: 2,
      checkFailures: 0,
    });
    expect(first?.scriptedCostUSD).toBeCloseTo(costOf(itemRuns('1')), 10);
    expect(second).toMatchObject({
      workItemID: '2',
      outcome: 'approved',
      runs: 2,
      reviewRounds: 1,
      firstPassApproved: true,
      checkRounds: 1,
    });
    expect(second?.scriptedCostUSD).toBeCloseTo(costOf(itemRuns('2')), 10);
    const firstRun = Math.min(...itemRuns('1').map((run) => run.requestedAt));
    expect(first?.firstRunAt).toBe(new Date(firstRun).toISOString());
    expect(first?.toApprovalMs).toBe(Date.parse(first?.approvedAt ?? '') - firstRun);
    expect(first?.toMergeMs).toBeGreaterThanOrEqual(first?.toApprovalMs ?? Number.POSITIVE_INFINITY);
    expect(stats.totals).toMatchObject({
      itemsDone: 2,
      itemsMerged: 1,
      firstPassApprovalRate: 0.5,
      reviewRoundsPerItem: 1.5,
      checkRoundsPerItem: 1.5,
    });
  });

  it('prints the same figures as tables, scripted cost marked', async () => {
    const { code, stdout } = await runFlotillaInProcess(demo.repoRoot, ['stats']);
    expect(code).toBe(0);
    expect(stdout).toContain('2 items approved or merged (1 merged), first-pass approval 50% (1/2)');
    expect(stdout).toMatch(/^spend \$\d+\.\d{4} \(scripted\) · 7 runs, 0 failed/m);
    expect(stdout).toMatch(/^#1\s+merged\s+\$\d+\.\d{4} \(scripted\)\s+4\s/m);
    expect(stdout).toMatch(/^#2\s+approved\s+\$\d+\.\d{4} \(scripted\)\s+2\s.*1 \(first pass\)/m);
  });
});
