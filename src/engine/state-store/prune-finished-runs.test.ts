import { describe, expect, it } from 'vitest';
import type { AgentRun } from '../../domain/index.ts';
import { pruneFinishedRuns } from './prune-finished-runs.ts';

function implementorRun(sessionID: string, status: AgentRun['status'], endedAt: number | null): AgentRun {
  return {
    role: 'implementor',
    sessionID,
    workItemID: '1',
    branchName: 'flotilla/1',
    status,
    logFilePath: null,
    error: null,
    requestedAt: 0,
    endedAt,
    usage: null,
    cancelRequestedBy: null,
  };
}

const record = (runs: AgentRun[]) => Object.fromEntries(runs.map((run) => [run.sessionID, run]));

describe('pruneFinishedRuns', () => {
  it('returns the same record until a quarter more than the limit has finished', () => {
    const runs = record([1, 2, 3, 4, 5].map((n) => implementorRun(`r${n}`, 'completed', n)));
    expect(pruneFinishedRuns(runs, 4)).toBe(runs);
  });

  it('then keeps every active run and the newest finished ones, down to the limit', () => {
    const runs = record([
      ...[1, 2, 3, 4, 5, 6].map((n) => implementorRun(`r${n}`, n % 2 ? 'failed' : 'completed', n)),
      implementorRun('active', 'running', null),
    ]);
    expect(Object.keys(pruneFinishedRuns(runs, 4)).sort()).toEqual(['active', 'r3', 'r4', 'r5', 'r6']);
  });
});
