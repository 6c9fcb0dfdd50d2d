import { describe, expect, it } from 'vitest';
import type { StoredAgentRun } from '../../storage/index.ts';
import { loadStatsRecords } from './load-stats-records.ts';

const run = (sessionID: string): StoredAgentRun => ({
  sessionID,
  role: 'implementor',
  workItemID: '1',
  branchName: 'flotilla/1',
  status: 'completed',
  failureReason: null,
  cancelRequestedBy: null,
  requestedAt: 1,
  endedAt: 2,
  usage: { costUSD: 0.1, inputTokens: 10, outputTokens: 5, turns: 1 },
  runtime: 'claude',
  logFilePath: null,
  error: null,
});

describe('loadStatsRecords', () => {
  it("takes each run's model from the ledger; a run the ledger has no model for is unknown", () => {
    const records = loadStatsRecords({
      listRuns: () => [run('a'), run('b')],
      outcomes: { listItemOutcomes: () => [] },
      modelsBySession: () => new Map([['a', 'claude-sonnet-5']]),
    });
    expect(records.runs.map((r) => [r.sessionID, r.model])).toEqual([
      ['a', 'claude-sonnet-5'],
      ['b', null],
    ]);
  });
});
