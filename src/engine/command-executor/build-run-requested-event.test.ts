import { describe, expect, it } from 'vitest';
import { buildRunRequest } from './build-run-requested-event.ts';

const implement = { type: 'requestImplementorRun', workItemID: '7' } as const;

describe('buildRunRequest', () => {
  it("records the scheduler's file estimate on the implementor's requested event, not in its request", () => {
    const { event, request } = buildRunRequest(
      { sessionID: 's1', command: implement, at: 5, files: ['src/a.ts'] },
      'flotilla/',
    );
    expect(event).toEqual({
      type: 'implementorRequested',
      sessionID: 's1',
      workItemID: '7',
      branchName: 'flotilla/7',
      at: 5,
      estimatedFiles: ['src/a.ts'],
    });
    expect(request).toEqual({
      role: 'implementor',
      sessionID: 's1',
      workItemID: '7',
      branchName: 'flotilla/7',
    });
  });

  it('leaves the estimate out when the scheduler had none', () => {
    const { event } = buildRunRequest({ sessionID: 's1', command: implement, at: 5 }, 'flotilla/');
    expect(event).not.toHaveProperty('estimatedFiles');
  });
});
