import { describe, expect, it } from 'vitest';
import { buildImplementorRun, buildTestState } from '../../../test/support/shared/builders/index.ts';
import type { EngineEvent } from '../../domain/index.ts';
import { createSpendTally } from './create-spend-tally.ts';

function ended(sessionID: string, costUSD: number): EngineEvent {
  return {
    type: 'implementorFailed',
    sessionID,
    workItemID: '1',
    branchName: 'flotilla/1',
    reason: 'error',
    error: 'boom',
    logFilePath: null,
    usage: { costUSD, inputTokens: 1, outputTokens: 1, turns: 1 },
    at: 1,
  };
}

describe('createSpendTally', () => {
  it('counts ended runs and keeps made-up scripted costs apart', () => {
    const state = buildTestState({
      agentRuns: [
        buildImplementorRun({ sessionID: 'real', workItemID: '1' }),
        buildImplementorRun({ sessionID: 'fake', workItemID: '1', runtime: 'scripted' }),
      ],
    });
    const tally = createSpendTally();
    expect(tally.describe()).toBeNull();
    tally.record(ended('fake', 0.002), state);
    expect(tally.describe()).toBe('1 agent run, $0.0020 (scripted)');
    tally.record(ended('real', 0.0125), state);
    tally.record(
      { type: 'workItemChanged', workItemID: '1', workItem: null, oldStatus: 'pending', newStatus: null },
      state,
    );
    expect(tally.describe()).toBe('2 agent runs, $0.0125 + $0.0020 (scripted)');
  });
});
