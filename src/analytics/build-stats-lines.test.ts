import { describe, expect, it } from 'vitest';
import { buildOutcomeStats } from './build-outcome-stats.ts';
import { buildStatsLines, formatCost } from './build-stats-lines.ts';

describe('formatCost', () => {
  it('keeps scripted cost apart and marked', () => {
    expect(formatCost({ costUSD: 0.125, scriptedCostUSD: 0 })).toBe('$0.1250');
    expect(formatCost({ costUSD: 0, scriptedCostUSD: 0.0024 })).toBe('$0.0024 (scripted)');
    expect(formatCost({ costUSD: 1.5, scriptedCostUSD: 0.0024 })).toBe('$1.5000 + $0.0024 (scripted)');
    expect(formatCost({ costUSD: 0, scriptedCostUSD: 0 })).toBe('$0.0000');
  });
});

describe('buildStatsLines', () => {
  it('says so when there is nothing yet, with every section titled', () => {
    const now = new Date(2026, 10, 22, 12).getTime();
    const lines = buildStatsLines(buildOutcomeStats({ runs: [], items: [] }, { since: null, now }));
    expect(lines.map((line) => line.text)).toEqual([
      'Every run recorded: 0 items approved or merged (0 merged), first-pass approval -',
      'spend $0.0000 · 0 runs, 0 failed, 0 stopped · tokens 0 in / 0 out',
      '',
      'ITEMS (approved or merged)',
      'none in this period',
      '',
      'FAILURES by reason',
      'none',
      '',
      'STOPPED by reason (limits, budget… — not failed attempts)',
      'none',
      '',
      'SPEND by role, runtime, model, account',
      'no runs in this period',
      '',
      'TREND per day',
      'nothing recorded yet',
      '',
      'FILE ESTIMATES (conflict-aware dispatch)',
      'no completed implementor run with a patch in this period',
    ]);
    expect(lines.filter((line) => line.bold).map((line) => line.text)).toHaveLength(7);
  });

  it("says how often the scheduler's file estimate matched what implementors changed", () => {
    const now = new Date(2026, 10, 22, 12).getTime();
    const base = {
      role: 'implementor' as const,
      workItemID: '1',
      status: 'completed' as const,
      failureReason: null,
      cancelRequestedBy: null,
      requestedAt: now - 60_000,
      endedAt: now - 1_000,
      costUSD: null,
      inputTokens: null,
      outputTokens: null,
      runtime: 'claude',
      model: null,
      account: null,
    };
    const runs = [
      { ...base, sessionID: 'a', estimatedFiles: ['src/a.ts'], changedFiles: ['src/a.ts', 'src/b.ts'] },
      { ...base, sessionID: 'b', estimatedFiles: ['src/c.ts'], changedFiles: ['src/d.ts'] },
      { ...base, sessionID: 'c', estimatedFiles: null, changedFiles: ['src/e.ts'] },
    ];
    const lines = buildStatsLines(buildOutcomeStats({ runs, items: [] }, { since: null, now }));
    expect(lines.at(-1)?.text).toBe(
      '2 of 3 runs had an estimate; it named a changed file in 50% (1/2) · estimated files changed 50% · changed files estimated 33%',
    );
  });

  it('shows an agent-written title without its control characters, on one line, cut short', () => {
    const now = new Date(2026, 10, 22, 12).getTime();
    const title = `Add \u001b[2Jlogin\rnow ${'x'.repeat(60)}\nsecond line`;
    const lines = buildStatsLines(
      buildOutcomeStats(
        {
          runs: [],
          items: [
            {
              workItemID: '3',
              title,
              status: 'approved',
              mergedAt: null,
              reviews: [{ state: 'APPROVED', at: now - 1 }],
              checks: [],
            },
          ],
        },
        { since: null, now },
      ),
    );
    const row = lines.find((line) => line.text.startsWith('#3'))?.text ?? '';
    expect(row).toMatch(/Add �\[2Jlogin�now x+…$/);
    expect(row).not.toContain('second line');
    expect(row.slice(row.indexOf('Add'))).toHaveLength(48);
  });
});
