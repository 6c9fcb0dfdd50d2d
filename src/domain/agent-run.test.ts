import { describe, expect, it } from 'vitest';
import {
  AGENT_RUN_TRANSITIONS,
  type AgentRunStatus,
  canTransitionAgentRun,
  failureReasonToRunStatus,
  isAgentRunActive,
} from './agent-run.ts';

/** The lifecycle as designed (docs/architecture.md §Agent runs: requested → running → terminal, plus requested → failed). */
const EXPECTED_ALLOWED = new Set([
  'requested→running',
  'requested→failed',
  'requested→cancelled',
  'running→completed',
  'running→failed',
  'running→timed-out',
  'running→cancelled',
]);
const STATUSES: AgentRunStatus[] = ['requested', 'running', 'completed', 'failed', 'timed-out', 'cancelled'];
const ALL_PAIRS = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

describe('AGENT_RUN_TRANSITIONS', () => {
  it('covers exactly the six run statuses', () => {
    expect(Object.keys(AGENT_RUN_TRANSITIONS).sort()).toEqual([...STATUSES].sort());
  });

  it.each(ALL_PAIRS)('%s → %s is allowed only if the lifecycle has it', (from, to) => {
    expect(canTransitionAgentRun(from, to)).toBe(EXPECTED_ALLOWED.has(`${from}→${to}`));
  });

  it.each(['completed', 'failed', 'timed-out', 'cancelled'] as const)('%s is terminal', (status) => {
    expect(AGENT_RUN_TRANSITIONS[status]).toEqual([]);
  });
});

describe('isAgentRunActive', () => {
  it.each(STATUSES)('%s', (status) => {
    expect(isAgentRunActive({ status })).toBe(status === 'requested' || status === 'running');
  });
});

describe('failureReasonToRunStatus', () => {
  it('maps each failure reason to its terminal status', () => {
    expect(failureReasonToRunStatus('error')).toBe('failed');
    expect(failureReasonToRunStatus('timeout')).toBe('timed-out');
    expect(failureReasonToRunStatus('cancelled')).toBe('cancelled');
    expect(failureReasonToRunStatus('validation')).toBe('failed');
  });
});
