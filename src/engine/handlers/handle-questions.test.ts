import { describe, expect, it } from 'vitest';
import { buildHandlerConfig } from '../../../test/support/engine/build-handler-config.ts';
import { buildSampleEvents } from '../../../test/support/engine/build-sample-events.ts';
import { buildSampleState } from '../../../test/support/engine/build-sample-state.ts';
import { SAMPLE_IDS as ID } from '../../../test/support/engine/sample-ids.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
import { handleQuestions } from './handle-questions.ts';

const config = buildHandlerConfig();

function handleAfter(event: Parameters<typeof handleQuestions>[0], state = buildSampleState()) {
  return handleQuestions(event, applyStateUpdate(state, event).state, config);
}

describe('handleQuestions', () => {
  it('questions: posts them as a comment and moves the item to waiting-for-input', () => {
    const commands = handleAfter(buildSampleEvents().agentAskedQuestions);
    expect(commands).toEqual([
      expect.objectContaining({ type: 'commentOnWorkItem', workItemID: ID.implementingItem }),
      {
        type: 'transitionWorkItemStatus',
        workItemID: ID.implementingItem,
        newStatus: 'waiting-for-input',
        cause: 'agent-questions',
      },
    ]);
    const comment = commands[0];
    if (comment?.type !== 'commentOnWorkItem') throw new Error('expected a comment');
    expect(comment.body).toContain('1. Which database should the cache use?');
    expect(comment.body).toContain(`flotilla answer ${ID.implementingItem}`);
  });

  it('questions from an implementor whose item a human closed meanwhile: the kept session is discarded', () => {
    const state = buildSampleState();
    const item = state.workItems[ID.implementingItem];
    if (item === undefined) throw new Error('no implementing item in the sample state');
    const closed = {
      ...state,
      workItems: { ...state.workItems, [item.id]: { ...item, status: 'closed' as const } },
    };
    expect(handleAfter(buildSampleEvents().agentAskedQuestions, closed)).toEqual([
      { type: 'discardWaitingSession', workItemID: ID.implementingItem },
    ]);
  });

  describe('questions from an automatic refinement (issue #29)', () => {
    /** The sample's running implementor as an automatic refine run, its item in `status`. */
    const refiningIn = (status: 'needs-refinement' | 'closed') => {
      const state = buildSampleState();
      const item = state.workItems[ID.implementingItem];
      const run = state.agentRuns[ID.sessions.runningImplementor];
      if (item === undefined || run?.role !== 'implementor')
        throw new Error('no implementing run in the sample');
      return {
        ...state,
        workItems: { ...state.workItems, [item.id]: { ...item, status } },
        agentRuns: { ...state.agentRuns, [run.sessionID]: { ...run, mode: 'refine' as const } },
      };
    };
    const asked = {
      ...buildSampleEvents().agentAskedQuestions,
      sessionID: ID.sessions.runningImplementor,
    };

    it('park the item waiting for input, as an implementor’s do; the wait keeps the mode', () => {
      const after = applyStateUpdate(refiningIn('needs-refinement'), asked).state;
      expect(after.waitingForInput[ID.implementingItem]).toMatchObject({ mode: 'refine' });
      expect(handleQuestions(asked, after, config)).toEqual([
        {
          type: 'commentOnWorkItem',
          workItemID: ID.implementingItem,
          body: expect.stringContaining('1. Which database should the cache use?'),
        },
        {
          type: 'transitionWorkItemStatus',
          workItemID: ID.implementingItem,
          newStatus: 'waiting-for-input',
          cause: 'agent-questions',
        },
      ]);
    });

    it('answered: the same refinement resumes as a refine run, the item’s labels notwithstanding', () => {
      const waiting = applyStateUpdate(refiningIn('needs-refinement'), asked).state;
      const item = waiting.workItems[ID.implementingItem]!;
      const parked = {
        ...waiting,
        workItems: { ...waiting.workItems, [item.id]: { ...item, status: 'waiting-for-input' as const } },
      };
      const answered = {
        ...buildSampleEvents().questionsAnswered,
        workItemID: ID.implementingItem,
        answers: 'Use SQLite.',
      };
      expect(handleQuestions(answered, applyStateUpdate(parked, answered).state, config)).toContainEqual({
        type: 'requestImplementorRun',
        workItemID: ID.implementingItem,
        mode: 'refine',
        resume: {
          waiting: expect.objectContaining({ sessionID: ID.sessions.runningImplementor, mode: 'refine' }),
          answers: 'Use SQLite.',
        },
      });
    });

    it('on an item a human closed meanwhile: the kept session is discarded', () => {
      expect(handleAfter(asked, refiningIn('closed'))).toEqual([
        { type: 'discardWaitingSession', workItemID: ID.implementingItem },
      ]);
    });
  });

  describe('questions from a reviewer', () => {
    const asked = {
      ...buildSampleEvents().agentAskedQuestions,
      sessionID: ID.sessions.runningReviewer,
      role: 'reviewer' as const,
      workItemID: ID.reviewingItem,
      revisionID: ID.reviewingRevision,
    };
    const withItemIn = (status: 'review' | 'pending' | 'approved') => {
      const state = buildSampleState();
      const item = state.workItems[ID.reviewingItem];
      if (item === undefined) throw new Error('no reviewing item in the sample state');
      return { ...state, workItems: { ...state.workItems, [item.id]: { ...item, status } } };
    };

    it('on an item still in review: posted, and the item waits for input', () => {
      expect(handleAfter(asked, withItemIn('review'))).toEqual([
        expect.objectContaining({ type: 'commentOnWorkItem', workItemID: ID.reviewingItem }),
        expect.objectContaining({ type: 'transitionWorkItemStatus', newStatus: 'waiting-for-input' }),
      ]);
    });

    it.each(['pending', 'approved'] as const)(
      'on an item moved to %s meanwhile: the kept session is discarded',
      (status) => {
        expect(handleAfter(asked, withItemIn(status))).toEqual([
          { type: 'discardWaitingSession', workItemID: ID.reviewingItem },
        ]);
      },
    );
  });

  it('an answer from the dashboard is recorded and resumes the waiting session as session 2', () => {
    const commands = handleAfter(buildSampleEvents().questionsAnswered);
    expect(commands).toEqual([
      expect.objectContaining({ type: 'commentOnWorkItem', workItemID: ID.waitingItem }),
      {
        type: 'requestImplementorRun',
        workItemID: ID.waitingItem,
        resume: {
          waiting: expect.objectContaining({ sessionID: ID.sessions.askedImplementor, sessionNumber: 1 }),
          answers: 'Use SQLite.',
        },
      },
    ]);
  });

  it('an answer read from the tracker is not posted again; a second answer is ignored', () => {
    const fromTracker = { ...buildSampleEvents().questionsAnswered, source: 'tracker' as const };
    const first = applyStateUpdate(buildSampleState(), fromTracker).state;
    expect(handleQuestions(fromTracker, first, config).map((command) => command.type)).toEqual([
      'requestImplementorRun',
    ]);
    const again = { ...fromTracker, answers: 'Something else.' };
    expect(handleQuestions(again, applyStateUpdate(first, again).state, config)).toEqual([]);
  });

  it('timeout: comment, discard the kept session, needs-refinement; not once answered', () => {
    const event = buildSampleEvents().questionsTimedOut;
    // The discard comes first: its waitingSessionDiscarded is applied before the move's workItemChanged,
    // which then is not taken for a human moving the item on (that would discard the session again).
    expect(handleAfter(event).map((command) => command.type)).toEqual([
      'commentOnWorkItem',
      'discardWaitingSession',
      'transitionWorkItemStatus',
    ]);
    const discarded = applyStateUpdate(buildSampleState(), {
      type: 'waitingSessionDiscarded',
      workItemID: ID.waitingItem,
      at: 9_000,
    }).state;
    const item = discarded.workItems[ID.waitingItem];
    if (item === undefined) throw new Error('no waiting item');
    const moved = {
      type: 'workItemChanged' as const,
      workItemID: ID.waitingItem,
      workItem: { ...item, status: 'needs-refinement' as const },
      oldStatus: 'waiting-for-input' as const,
      newStatus: 'needs-refinement' as const,
    };
    expect(handleAfter(moved, discarded)).toEqual([]);
    const answered = applyStateUpdate(buildSampleState(), buildSampleEvents().questionsAnswered).state;
    expect(handleQuestions(event, answered, config)).toEqual([]);
  });

  it('a human moving a waiting item elsewhere discards its session', () => {
    const state = buildSampleState();
    const item = state.workItems[ID.waitingItem];
    if (item === undefined) throw new Error('no waiting item');
    const moved = {
      type: 'workItemChanged' as const,
      workItemID: ID.waitingItem,
      workItem: { ...item, status: 'pending' as const },
      oldStatus: 'waiting-for-input' as const,
      newStatus: 'pending' as const,
    };
    expect(handleAfter(moved)).toEqual([{ type: 'discardWaitingSession', workItemID: ID.waitingItem }]);
    // Answered, its resume still queued (no free slot): the resume will not start, the session goes too.
    const answered = applyStateUpdate(state, buildSampleEvents().questionsAnswered).state;
    expect(handleAfter(moved, answered)).toEqual([
      { type: 'discardWaitingSession', workItemID: ID.waitingItem },
    ]);
  });
});
