/**
 * Nobody answers: after questionTimeout (an injected clock, no waiting) the item goes to needs-refinement
 * with a comment, and the kept worktree and session state are removed — once. A human answering from the
 * dashboard (an event) instead resumes the session; a human moving the item on discards it, once too.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import {
  ASKING_IMPLEMENTOR_ROUNDS,
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  withCountedDiscards,
} from '../support/cli-runtime-fixture.ts';
import { createManualClock } from '../support/engine/create-manual-clock.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';

const QUESTION_TIMEOUT_S = 3600;
let fixture: CliRuntimeFixture | null = null;
let runningEngine: Engine | null = null;
afterEach(async () => {
  await runningEngine?.stop();
  await fixture?.cleanup();
  runningEngine = null;
  fixture = null;
});

async function setUp() {
  fixture = await createCliRuntimeFixture();
  const runtime = await fixture.runtimeFor([...ASKING_IMPLEMENTOR_ROUNDS]);
  const { runtime: counted, discarded } = withCountedDiscards(runtime);
  const provider: InMemoryProvider = createInMemoryProvider({ initialPipelineStatus: 'pending' });
  const clock = createManualClock(Date.now());
  runningEngine = createEngine({
    provider,
    logger: createRecordingLogger(),
    clock,
    questionTimeout: QUESTION_TIMEOUT_S,
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    createRuntimeAdapters: () => ({ planner: counted, implementor: counted, reviewer: counted }),
  });
  provider.control.addWorkItem({ title: 'Add a store', body: 'Objective: store.', status: 'pending' });
  await runningEngine.start();
  const started = runningEngine;
  const discardEvents: string[] = [];
  started.onEvent((event) => {
    if (event.type === 'waitingSessionDiscarded') discardEvents.push(event.workItemID);
  });
  await waitUntil(
    () => started.getState().workItems['1']?.status === 'waiting-for-input',
    45_000,
    'the item to wait for input',
  );
  return { engine: started, provider, clock, discarded, discardEvents };
}

describe('question timeout', () => {
  it('moves the item to needs-refinement with a comment and reaps the kept worktree, once', async () => {
    const { engine, provider, clock, discarded, discardEvents } = await setUp();
    const waiting = engine.getState().waitingForInput['1'];
    const worktree = waiting?.session.worktree?.path ?? '';
    const stateDir = waiting?.session.stateDir ?? '';
    expect(existsSync(worktree)).toBe(true);
    expect(provider.control.workItemComments('1').join('\n')).toContain('1. Which database?');

    clock.advance(QUESTION_TIMEOUT_S * 1000 - 1);
    await engine.whenQuiescent();
    expect(engine.getState().workItems['1']?.status).toBe('waiting-for-input');

    clock.advance(1);
    await waitUntil(
      () => engine.getState().workItems['1']?.status === 'needs-refinement',
      10_000,
      'the item to need refinement',
    );
    await waitUntil(() => engine.getState().waitingForInput['1'] === undefined, 10_000, 'the wait to end');
    expect(existsSync(worktree)).toBe(false);
    expect(existsSync(stateDir)).toBe(false);
    expect(provider.control.workItemComments('1').at(-1)).toContain('Nobody answered');
    // The item's move to needs-refinement is not taken for a human moving it on: one discard, not two.
    await engine.whenQuiescent();
    expect(discarded).toEqual([waiting?.session]);
    expect(discardEvents).toEqual(['1']);
  }, 90_000);

  it('a human closing the waiting item discards its session once; the timeout then does nothing', async () => {
    const { engine, provider, clock, discarded, discardEvents } = await setUp();
    const waiting = engine.getState().waitingForInput['1'];
    provider.control.closeWorkItem('1');
    await engine.pollNow();
    await waitUntil(() => engine.getState().waitingForInput['1'] === undefined, 10_000, 'the wait to end');
    await engine.whenQuiescent();
    expect(existsSync(waiting?.session.worktree?.path ?? '')).toBe(false);
    clock.advance(QUESTION_TIMEOUT_S * 1000);
    await engine.whenQuiescent();
    expect(discarded).toEqual([waiting?.session]);
    expect(discardEvents).toEqual(['1']);
    expect(provider.control.workItemComments('1').join('\n')).not.toContain('Nobody answered');
  }, 90_000);

  it('an answer from the dashboard resumes the session instead', async () => {
    const { engine, provider, clock } = await setUp();
    engine.enqueue({
      type: 'questionsAnswered',
      workItemID: '1',
      answers: 'SQLite.',
      source: 'user',
    });
    await waitUntil(
      () => engine.getState().workItems['1']?.status === 'review',
      45_000,
      'the item in review',
    );
    // The answer is recorded on the item, after the questions.
    const comments = provider.control.workItemComments('1');
    expect(comments.findIndex((body) => body.includes('SQLite.'))).toBeGreaterThan(
      comments.findIndex((body) => body.includes('Which database?')),
    );
    const sessions = Object.values(engine.getState().agentRuns)
      .filter((run) => run.role === 'implementor')
      .map((run) => [run.sessionNumber ?? 1, run.askedQuestions === true]);
    expect(sessions).toEqual([
      [1, true],
      [2, false],
    ]);
    // Answered: the timeout no longer applies.
    clock.advance(QUESTION_TIMEOUT_S * 1000);
    await engine.whenQuiescent();
    expect(engine.getState().workItems['1']?.status).toBe('review');
  }, 90_000);
});
