/**
 * A planner's questions, step by step through the pure parts: each event is applied to the state, then the
 * handlers that react to it are run on the result (as the loop does, without the executor).
 */
import { describe, expect, it } from 'vitest';
import { buildHandlerConfig } from '../../../test/support/engine/build-handler-config.ts';
import {
  buildPlannerResult,
  buildPlannerRun,
  buildSpec,
  buildSpecChanged,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import type { AgentAskedQuestions, EngineEvent, WorkItem } from '../../domain/index.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { handleOrphanedWorkItem } from './handle-orphaned-work-item.ts';
import { handlePlanning } from './handle-planning.ts';
import { handleQuestions } from './handle-questions.ts';
import { ALL_HANDLERS } from './index.ts';

const config = buildHandlerConfig();
const SPEC = 'docs/specs/alpha.md';
const OTHER_SPEC = 'docs/specs/beta.md';
const QUESTIONS_ITEM = 'q-1';
const PLANNER = 'planner-asking';
const RESUMED = 'planner-resumed';
const GIVEN = { [SPEC]: 'sha-alpha-2', [OTHER_SPEC]: 'sha-beta-1' };
const KEPT = {
  runtime: 'claude',
  agentSessionID: PLANNER,
  worktree: null,
  stateDir: `/state/runs/${PLANNER}`,
};

function questionsItem(status: WorkItem['status']): WorkItem {
  return buildWorkItem({
    id: QUESTIONS_ITEM,
    title: `Planner questions: ${SPEC}`,
    kind: 'questions',
    status,
  });
}

/** A planner given alpha (not planned at this version) and beta (planned), still running. */
function runningPlannerState(): EngineState {
  return buildTestState({
    specs: [
      buildSpec({ filePath: SPEC, blobSHA: 'sha-alpha-2' }),
      buildSpec({ filePath: OTHER_SPEC, blobSHA: 'sha-beta-1' }),
    ],
    lastPlannedSHAs: { [SPEC]: 'sha-alpha-1', [OTHER_SPEC]: 'sha-beta-1' },
    agentRuns: [buildPlannerRun({ sessionID: PLANNER, specPaths: Object.keys(GIVEN), specSHAs: GIVEN })],
  });
}

const created: EngineEvent = {
  type: 'workItemChanged',
  workItemID: QUESTIONS_ITEM,
  workItem: questionsItem('waiting-for-input'),
  oldStatus: null,
  newStatus: 'waiting-for-input',
};

const asked: AgentAskedQuestions = {
  type: 'agentAskedQuestions',
  sessionID: PLANNER,
  role: 'planner',
  workItemID: QUESTIONS_ITEM,
  revisionID: null,
  questions: ['Should the cache expire entries?'],
  session: KEPT,
  logFilePath: null,
  usage: null,
  at: 5_000,
};

/** Applies the events in order and returns every handler's commands for the last one. */
function run(state: EngineState, ...events: EngineEvent[]) {
  let next = state;
  for (const event of events) {
    const update = applyStateUpdate(next, event);
    expect(update.warnings).toEqual([]);
    next = update.state;
  }
  const last = events.at(-1);
  if (last === undefined) throw new Error('no event');
  const commands = ALL_HANDLERS.flatMap((handler) => handler.handle(last, next, config));
  return { state: next, commands };
}

/** The state once the planner asked: its questions item waits. */
function waitingState(): EngineState {
  return run(runningPlannerState(), created, asked).state;
}

describe("a planner's questions", () => {
  it('the new questions item is not treated as orphaned while its planner still runs', () => {
    expect(run(runningPlannerState(), created).commands).toEqual([]);
  });

  it('wait on the questions item: the session and the specs it was given are kept; only the comment is posted', () => {
    const { state, commands } = run(runningPlannerState(), created, asked);
    expect(state.waitingForInput[QUESTIONS_ITEM]).toMatchObject({
      role: 'planner',
      sessionID: PLANNER,
      sessionNumber: 1,
      specSHAs: GIVEN,
      session: KEPT,
      answers: null,
    });
    expect(state.agentRuns[PLANNER]).toMatchObject({ status: 'completed', askedQuestions: true });
    // Created waiting already: no transition, and nothing plans meanwhile.
    expect(commands).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: QUESTIONS_ITEM,
        body: expect.stringContaining('1. Should the cache expire entries?'),
      },
    ]);
    expect(commands[0]).toMatchObject({ body: expect.stringContaining(`flotilla answer ${QUESTIONS_ITEM}`) });
  });

  it('while it waits, the same specs seen again (a restart) plan nothing and are not a change', () => {
    const state = waitingState();
    for (const path of [SPEC, OTHER_SPEC]) {
      const spec = state.specs[path];
      if (spec === undefined) throw new Error(`no spec ${path}`);
      expect(run(state, buildSpecChanged(spec, 'added')).commands).toEqual([]);
    }
    // Nor does a draft spec appearing.
    const draft = buildSpec({
      filePath: 'docs/specs/draft.md',
      blobSHA: 'sha-d',
      frontmatterStatus: 'draft',
    });
    expect(run(state, buildSpecChanged(draft, 'added')).commands).toEqual([]);
  });

  it('an answer resumes the same planner session on the specs it was given', () => {
    const { commands } = run(waitingState(), {
      type: 'questionsAnswered',
      workItemID: QUESTIONS_ITEM,
      answers: 'Yes, after an hour.',
      source: 'tracker',
    });
    expect(commands).toEqual([
      {
        type: 'requestPlannerRun',
        specPaths: [SPEC, OTHER_SPEC],
        specSHAs: GIVEN,
        resume: {
          waiting: expect.objectContaining({ sessionID: PLANNER, workItemID: QUESTIONS_ITEM }),
          answers: 'Yes, after an hour.',
        },
      },
    ]);
  });

  /** The state once the answered planner's resume was requested (session 2). */
  function resumedState(): { state: EngineState; commands: ReturnType<typeof run>['commands'] } {
    const answered = run(waitingState(), {
      type: 'questionsAnswered',
      workItemID: QUESTIONS_ITEM,
      answers: 'Yes.',
      source: 'tracker',
    }).state;
    return run(answered, {
      type: 'plannerRequested',
      sessionID: RESUMED,
      specPaths: Object.keys(GIVEN),
      specSHAs: GIVEN,
      sessionNumber: 2,
      questionsItemID: QUESTIONS_ITEM,
      at: 6_000,
    });
  }

  it('the resume takes the wait over and moves the questions item to in-progress', () => {
    const { state, commands } = resumedState();
    expect(state.waitingForInput).toEqual({});
    expect(state.agentRuns[RESUMED]).toMatchObject({ sessionNumber: 2, questionsItemID: QUESTIONS_ITEM });
    expect(commands).toEqual([
      {
        type: 'transitionWorkItemStatus',
        workItemID: QUESTIONS_ITEM,
        newStatus: 'in-progress',
        cause: 'questions-answered',
      },
    ]);
  });

  it('the resumed planner completes: its result is applied and the questions item closed with it', () => {
    const { state } = resumedState();
    const result = buildPlannerResult();
    const { state: done, commands } = run(
      state,
      { type: 'plannerStarted', sessionID: RESUMED, logFilePath: null, at: 6_100 },
      {
        type: 'plannerCompleted',
        sessionID: RESUMED,
        specPaths: Object.keys(GIVEN),
        result,
        logFilePath: null,
        usage: null,
        at: 7_000,
      },
    );
    expect(commands).toEqual([
      { type: 'applyPlannerResult', result, questionsItemID: QUESTIONS_ITEM, sessionID: RESUMED },
    ]);
    expect(done.lastPlannedSHAs).toEqual(GIVEN);
  });

  it('the resumed planner fails: the questions item is closed with the reason, and planning retries', () => {
    const { state } = resumedState();
    const withItem = run(state, {
      type: 'workItemChanged',
      workItemID: QUESTIONS_ITEM,
      workItem: questionsItem('in-progress'),
      oldStatus: 'waiting-for-input',
      newStatus: 'in-progress',
    });
    // In progress with its planner requested: not orphaned.
    expect(withItem.commands).toEqual([]);
    const { commands } = run(withItem.state, {
      type: 'plannerFailed',
      sessionID: RESUMED,
      specPaths: Object.keys(GIVEN),
      reason: 'error',
      error: 'the model went away',
      logFilePath: null,
      usage: null,
      at: 7_000,
    });
    expect(commands).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: QUESTIONS_ITEM,
        body: expect.stringContaining('the model went away'),
      },
      { type: 'transitionWorkItemStatus', workItemID: QUESTIONS_ITEM, newStatus: 'closed', cause: 'planner' },
      { type: 'requestPlannerRun', specPaths: [SPEC, OTHER_SPEC], specSHAs: GIVEN },
    ]);
  });

  it('a changed approved spec supersedes the questions once per poll, then plans the new version', () => {
    const state = waitingState();
    const edited = buildSpec({ filePath: OTHER_SPEC, blobSHA: 'sha-beta-2' });
    const draft = buildSpec({ filePath: 'docs/specs/zeta.md', blobSHA: 'sha-z', frontmatterStatus: 'draft' });
    // One poll reports both; handlers see the state after both, and only the changed spec's event acts.
    const afterPoll = applyStateUpdate(
      applyStateUpdate(state, buildSpecChanged(edited)).state,
      buildSpecChanged(draft),
    ).state;
    const forDraft = ALL_HANDLERS.flatMap((handler) =>
      handler.handle(buildSpecChanged(draft), afterPoll, config),
    );
    expect(forDraft).toEqual([]);
    const forEdit = ALL_HANDLERS.flatMap((handler) =>
      handler.handle(buildSpecChanged(edited), afterPoll, config),
    );
    expect(forEdit).toEqual([
      { type: 'commentOnWorkItem', workItemID: QUESTIONS_ITEM, body: expect.stringContaining(OTHER_SPEC) },
      { type: 'discardWaitingSession', workItemID: QUESTIONS_ITEM, replan: true },
      { type: 'transitionWorkItemStatus', workItemID: QUESTIONS_ITEM, newStatus: 'closed', cause: 'planner' },
    ]);
    const { commands } = run(afterPoll, {
      type: 'waitingSessionDiscarded',
      workItemID: QUESTIONS_ITEM,
      replan: true,
      at: 8_000,
    });
    expect(commands).toEqual([
      {
        type: 'requestPlannerRun',
        specPaths: [SPEC, OTHER_SPEC],
        specSHAs: { [SPEC]: 'sha-alpha-2', [OTHER_SPEC]: 'sha-beta-2' },
      },
    ]);
  });

  it('a spec removed while it waits supersedes the questions too', () => {
    const state = waitingState();
    const removed = {
      ...buildSpecChanged(buildSpec({ filePath: OTHER_SPEC, blobSHA: 'sha-beta-1' })),
      changeType: 'removed' as const,
    };
    expect(run(state, removed).commands.map((command) => command.type)).toEqual([
      'commentOnWorkItem',
      'discardWaitingSession',
      'transitionWorkItemStatus',
    ]);
  });

  it('a discard that is not a supersede (timeout, a human) plans nothing', () => {
    const { commands } = run(waitingState(), {
      type: 'waitingSessionDiscarded',
      workItemID: QUESTIONS_ITEM,
      at: 8_000,
    });
    expect(commands).toEqual([]);
  });

  it('questionTimeout: comment, the session discarded, the questions item closed (not needs-refinement)', () => {
    const { commands } = run(waitingState(), {
      type: 'questionsTimedOut',
      workItemID: QUESTIONS_ITEM,
      sessionID: PLANNER,
      at: 9_000,
    });
    expect(commands).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: QUESTIONS_ITEM,
        body: expect.stringContaining('questionTimeout'),
      },
      { type: 'discardWaitingSession', workItemID: QUESTIONS_ITEM },
      {
        type: 'transitionWorkItemStatus',
        workItemID: QUESTIONS_ITEM,
        newStatus: 'closed',
        cause: 'questions-timed-out',
      },
    ]);
  });

  it('the close that follows an engine discard (timeout, supersede) does not discard the session again', () => {
    for (const replan of [false, true]) {
      const discarded = run(waitingState(), {
        type: 'waitingSessionDiscarded',
        workItemID: QUESTIONS_ITEM,
        ...(replan && { replan }),
        at: 8_000,
      }).state;
      const { commands } = run(discarded, {
        type: 'workItemChanged',
        workItemID: QUESTIONS_ITEM,
        workItem: questionsItem('closed'),
        oldStatus: 'waiting-for-input',
        newStatus: 'closed',
      });
      expect(commands).toEqual([]);
    }
  });

  it('a human closing the questions item discards the session without planning again', () => {
    const { commands } = run(waitingState(), {
      type: 'workItemChanged',
      workItemID: QUESTIONS_ITEM,
      workItem: questionsItem('closed'),
      oldStatus: 'waiting-for-input',
      newStatus: 'closed',
    });
    expect(commands).toEqual([{ type: 'discardWaitingSession', workItemID: QUESTIONS_ITEM }]);
  });

  it('a questions item no planner is on any more (after a restart) is closed, never sent to pending', () => {
    const restarted = buildTestState({ specs: [buildSpec({ filePath: SPEC, blobSHA: 'sha-alpha-2' })] });
    for (const status of ['in-progress', 'waiting-for-input'] as const) {
      const seen: EngineEvent = {
        type: 'workItemChanged',
        workItemID: QUESTIONS_ITEM,
        workItem: questionsItem(status),
        oldStatus: null,
        newStatus: status,
      };
      const after = applyStateUpdate(restarted, seen).state;
      expect(handleOrphanedWorkItem(seen, after, config)).toEqual([
        {
          type: 'commentOnWorkItem',
          workItemID: QUESTIONS_ITEM,
          body: expect.stringContaining('<!-- flotilla:'),
        },
        {
          type: 'transitionWorkItemStatus',
          workItemID: QUESTIONS_ITEM,
          newStatus: 'closed',
          cause: 'planner',
        },
      ]);
    }
    // Restored from storage with its kept session: it still waits.
    const seen: EngineEvent = { ...created };
    const restored = applyStateUpdate(
      { ...restarted, waitingForInput: waitingState().waitingForInput },
      seen,
    ).state;
    expect(handleOrphanedWorkItem(seen, restored, config)).toEqual([]);
    expect(handlePlanning(seen, restored, config)).toEqual([]);
    expect(handleQuestions(seen, restored, config)).toEqual([]);
  });
});
