import { describe, expect, it } from 'vitest';
import type { AgentUsage } from '../domain/index.ts';
import type { LiveUsageReport } from '../engine/runtime-contract/index.ts';
import { silentLogger } from '../logging/logger.ts';
import type { RunProgressRow } from './create-run-progress.ts';
import { followRunProgress } from './follow-run-progress.ts';

const spent = (costUSD: number): AgentUsage => ({ costUSD, inputTokens: null, outputTokens: null, turns: 1 });
const row = (seq: number, executor: string, costUSD: number): RunProgressRow => ({
  seq,
  executor,
  output: '',
  usage: { usage: spent(costUSD), model: 'm' },
  activity: false,
  notes: [],
});

describe("followRunProgress: a requeued run's live usage", () => {
  it('goes on from what the killed execution spent instead of dropping back to the new one’s', async () => {
    // Execution a spent $0.03 before its worker died; b, the requeued one, reports $0.01 then $0.02.
    const rows = [row(1, 'a', 0.01), row(2, 'a', 0.03), row(3, 'b', 0.01), row(4, 'b', 0.02)];
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const followed = followRunProgress(
      'run-1',
      { read: async (_runID, afterSeq) => rows.filter((entry) => entry.seq > afterSeq) },
      { pollMs: 5, done, logger: silentLogger },
    );
    const reports: LiveUsageReport[] = [];
    followed.onUsage((report) => reports.push(report));
    await new Promise((resolve) => setTimeout(resolve, 30));
    finish();
    await followed.ended;
    expect(reports.map((report) => report.usage.costUSD)).toEqual([0.01, 0.03, 0.04, 0.05]);
    expect(reports.at(-1)?.model).toBe('m');
  });
});
