/**
 * One rule for scripted runs' made-up costs: they count against no budget cap. A dry run under a tiny daily
 * cap runs to the end (the engine neither pauses dispatch nor stops a run), and `flotilla budget` shows $0.00
 * spent with the scripted amount apart, in the same form `flotilla runs` and `flotilla stats` use.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { initScriptedRepository, type ScriptedRepository } from '../support/init-scripted-repository.ts';

let repo: ScriptedRepository | undefined;
afterEach(async () => {
  await repo?.remove();
  repo = undefined;
});

describe('scripted costs and budget caps', () => {
  it('a dry run under `budget set daily 0.01` runs to the end; `budget` counts $0.00 and shows the rest apart', async () => {
    repo = await initScriptedRepository();
    expect((await repo.flotilla(['budget', 'set', 'daily', '0.01'])).code).toBe(0);
    expect((await repo.flotilla(['budget', 'set', 'per-run', '0.001'])).code).toBe(0);

    const run = await repo.flotilla(['run', '--until-idle']);
    expect(run.stdout).not.toContain('dispatch paused');
    expect(run.stdout).toMatch(/work item #1 review → approved/);
    expect(run.code, run.stdout + run.stderr).toBe(0);

    const budget = await repo.flotilla(['budget', '--json']);
    const report = JSON.parse(budget.stdout) as {
      day: { spentUSD: number; scriptedUSD: number; reached: boolean; runs: number };
      totalSpentUSD: number;
      totalScriptedUSD: number;
    };
    expect(report.day).toMatchObject({ spentUSD: 0, reached: false, runs: 3 });
    expect(report.totalSpentUSD).toBe(0);
    expect(report.day.scriptedUSD).toBeGreaterThan(0);
    expect(report.totalScriptedUSD).toBe(report.day.scriptedUSD);

    const text = (await repo.flotilla(['budget'])).stdout;
    const scripted = `$${report.totalScriptedUSD.toFixed(4)} (scripted)`;
    expect(text).toMatch(/^daily \(\S+\)\s+\$0\.01\s+\$0\.00\s+\$0\.01\s+3 run\(s\)/m);
    expect(text).toContain(`Scripted runs' made-up costs (${scripted}) count against no cap.`);
    // `stats` shows the same amount the same way.
    expect((await repo.flotilla(['stats', '--since', 'all'])).stdout).toContain(scripted);
  }, 180_000);
});
