import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../domain/index.ts';
import { summarizeFeedback } from './summarize-feedback.ts';

const failed = (type: 'implementorFailed' | 'reviewerFailed', reason: 'error' | 'timeout' | 'cancelled') =>
  ({
    type,
    sessionID: 's',
    workItemID: '4',
    branchName: 'flotilla/4',
    revisionID: 'r4',
    logFilePath: null,
    usage: null,
    at: 0,
    reason,
    error: 'first line\nsecond line',
  }) as EngineEvent;

describe('summarizeFeedback', () => {
  it('a refusal says which command and why', () => {
    const event: EngineEvent = {
      type: 'commandRejected',
      command: { type: 'requestImplementorRun', workItemID: '3' },
      reason: 'blocked by #2',
      kind: 'invalid',
      at: 0,
    };
    expect(summarizeFeedback(event)).toEqual({
      text: 'requestImplementorRun #3 refused: blocked by #2',
      tone: 'error',
    });
  });

  it('a duplicate request is normal and says nothing', () => {
    const event: EngineEvent = {
      type: 'commandRejected',
      command: { type: 'requestImplementorRun', workItemID: '3' },
      reason: 'already running',
      kind: 'duplicate',
      at: 0,
    };
    expect(summarizeFeedback(event)).toBeNull();
  });

  it('a command failure and a recorded error show their first line', () => {
    expect(
      summarizeFeedback({
        type: 'commandFailed',
        command: { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 'a1' } },
        error: 'network down\nstack…',
        at: 0,
      }),
    ).toEqual({ text: 'requestPlannerRun failed: network down', tone: 'error' });
    expect(
      summarizeFeedback({
        type: 'errorRecorded',
        source: 'spec poller',
        message: 'bad yaml\nat line 3',
        at: 0,
      }),
    ).toEqual({ text: 'spec poller: bad yaml', tone: 'error' });
  });

  it('failed runs: error, timeout, and cancelled (info)', () => {
    expect(summarizeFeedback(failed('implementorFailed', 'error'))).toEqual({
      text: '#4: implementor failed: first line',
      tone: 'error',
    });
    expect(summarizeFeedback(failed('reviewerFailed', 'timeout'))).toEqual({
      text: '#4: reviewer timed out: first line',
      tone: 'error',
    });
    expect(summarizeFeedback(failed('implementorFailed', 'cancelled'))).toEqual({
      text: '#4: implementor cancelled',
      tone: 'info',
    });
  });

  it('planner failures', () => {
    const base = {
      type: 'plannerFailed',
      sessionID: 'p',
      specPaths: ['a.md'],
      logFilePath: null,
      usage: null,
      at: 0,
    };
    expect(summarizeFeedback({ ...base, reason: 'error', error: 'oops' } as EngineEvent)).toEqual({
      text: 'planner failed: oops',
      tone: 'error',
    });
    expect(summarizeFeedback({ ...base, reason: 'cancelled', error: '' } as EngineEvent)).toEqual({
      text: 'planner cancelled',
      tone: 'info',
    });
  });

  it('routine progress says nothing', () => {
    expect(summarizeFeedback({ type: 'userRequestedMerge', workItemID: '1' })).toBeNull();
    expect(
      summarizeFeedback({ type: 'implementorStarted', sessionID: 's', logFilePath: null, at: 0 }),
    ).toBeNull();
  });
});
