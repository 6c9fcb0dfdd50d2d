import { describe, expect, it } from 'vitest';
import { buildTestState } from '../../../../test/support/shared/builders/index.ts';
import type { FailureRecord } from '../engine-state.ts';
import { getFailureRecord } from './get-failure-record.ts';

const record = (attempts: number): FailureRecord => ({
  attempts,
  lastReason: 'error',
  lastError: 'x',
  lastFailedAt: 1,
  lastSessionID: 's',
});

describe('getFailureRecord', () => {
  const state = buildTestState({
    failures: { planner: record(1), 'implementor:wi-1': record(2), 'reviewer:wi-1': record(3) },
  });

  it('looks records up by role and work item', () => {
    expect(getFailureRecord(state, 'planner')?.attempts).toBe(1);
    expect(getFailureRecord(state, 'implementor', 'wi-1')?.attempts).toBe(2);
    expect(getFailureRecord(state, 'reviewer', 'wi-1')?.attempts).toBe(3);
  });

  it('returns null when there is none', () => {
    expect(getFailureRecord(state, 'implementor', 'wi-2')).toBeNull();
  });
});
