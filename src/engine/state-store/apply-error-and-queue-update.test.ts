import { describe, expect, it } from 'vitest';
import { buildImplementorRun, buildTestState } from '../../../test/support/shared/builders/index.ts';
import type { DispatchQueued } from '../../domain/index.ts';
import { applyErrorAndQueueUpdate } from './apply-error-and-queue-update.ts';

const AT = 50_000;
const queued = (at: number): DispatchQueued => ({
  type: 'dispatchQueued',
  command: { type: 'requestImplementorRun', workItemID: 'wi-1' },
  reason: 'resources',
  detail: 'memory',
  notBefore: at + 5_000,
  priority: 0,
  at,
});

describe('a queueing that reaches the store after its run started', () => {
  it('is ignored when the run for its key was requested later (the scheduler started it meanwhile)', () => {
    const state = buildTestState({ agentRuns: [buildImplementorRun({ requestedAt: AT + 1 })] });
    expect(applyErrorAndQueueUpdate(state, queued(AT)).dispatchQueue).toEqual([]);
  });

  it('is ignored in the same millisecond while that run is active', () => {
    const state = buildTestState({ agentRuns: [buildImplementorRun({ requestedAt: AT, endedAt: null })] });
    expect(applyErrorAndQueueUpdate(state, queued(AT)).dispatchQueue).toEqual([]);
  });

  it('is kept after an ended run of the same millisecond (a retry queued by a frozen clock)', () => {
    const run = buildImplementorRun({ requestedAt: AT, endedAt: AT, status: 'failed' });
    const state = buildTestState({ agentRuns: [run] });
    expect(applyErrorAndQueueUpdate(state, queued(AT)).dispatchQueue.map((entry) => entry.key)).toEqual([
      'implementor:wi-1',
    ]);
  });

  it("is kept when only an earlier run, or another item's run, exists", () => {
    const state = buildTestState({
      agentRuns: [
        buildImplementorRun({ sessionID: 'old', requestedAt: AT - 10, endedAt: AT - 5, status: 'completed' }),
        buildImplementorRun({ sessionID: 'other', workItemID: 'wi-2', requestedAt: AT + 10 }),
      ],
    });
    expect(applyErrorAndQueueUpdate(state, queued(AT)).dispatchQueue).toHaveLength(1);
  });
});
