import { describe, expect, it } from 'vitest';
import type { StatsRun } from '../../analytics/stats-records.ts';
import { buildStatsPanel } from './build-stats-panel.ts';

const NOW = new Date(2026, 10, 22, 18).getTime();

function failedRun(sessionID: string, failureReason: string): StatsRun {
  return {
    sessionID,
    role: 'implementor',
    workItemID: '1',
    status: 'failed',
    failureReason,
    cancelRequestedBy: null,
    requestedAt: NOW - 3_600_000,
    endedAt: NOW - 3_500_000,
    costUSD: null,
    inputTokens: null,
    outputTokens: null,
    runtime: 'claude',
    model: null,
    account: null,
    estimatedFiles: null,
    changedFiles: null,
  };
}

describe('buildStatsPanel', () => {
  it('shows runs stopped by a limit apart from the failed ones, in their own bold section', () => {
    const lines = buildStatsPanel(
      { runs: [failedRun('a', 'usage-limit'), failedRun('b', 'error')], items: [] },
      NOW,
    );
    const texts = lines.map((line) => line.text);
    expect(texts).toContain('spend $0.0000 · 2 runs, 1 failed, 1 stopped · tokens 0 in / 0 out');
    const stopped = texts.findIndex((text) => text.startsWith('STOPPED by reason'));
    expect(lines[stopped]?.bold).toBe(true);
    expect(texts.slice(stopped + 1, stopped + 3)).toEqual([
      'REASON       RUNS  COST',
      'usage-limit  1     $0.0000',
    ]);
    const failures = texts.findIndex((text) => text.startsWith('FAILURES by reason'));
    expect(texts.slice(failures + 1, failures + 3)).toEqual(['REASON  RUNS  COST', 'error   1     $0.0000']);
  });
});
