import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import type { AgentRunRequestCommand, EngineEvent, WorkItem } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import type { Clock } from '../engine-config.ts';
import { DEFAULT_SCHEDULER_CONFIG } from '../engine-config.ts';
import { buildInitialEngineState, type EngineState } from '../state-store/engine-state.ts';
import { type AdmittedRun, createScheduler, type Revalidation } from './create-scheduler.ts';
import type { ResourceVerdict } from './resource-gate.ts';

function item(id: string, priority: WorkItem['priority'], createdAt: string): WorkItem {
  return {
    id,
    title: `Item ${id}`,
    status: 'ready',
    kind: 'task',
    priority,
    complexity: null,
    blockedBy: [],
    createdAt,
    linkedRevision: null,
  };
}

const implement = (workItemID: string): AgentRunRequestCommand => ({
  type: 'requestImplementorRun',
  workItemID,
});

/**
 * A manual clock whose first timer fires as Node's may: on time by the monotonic clock its callback's first
 * reading of the wall clock is a millisecond short; the next reading is on time.
 */
function createEarlyFiringClock(): ReturnType<typeof createManualClock> {
  const clock = createManualClock();
  let early = true;
  let shortReadings = 0;
  return {
    ...clock,
    now: () => {
      if (shortReadings === 0) return clock.now();
      shortReadings -= 1;
      return clock.now() - 1;
    },
    setTimeout: (callback: () => void, ms: number) =>
      clock.setTimeout(() => {
        if (early) shortReadings = 1;
        early = false;
        callback();
      }, ms),
  } satisfies Clock & ReturnType<typeof createManualClock>;
}

function setup(
  options: {
    max?: number;
    state?: EngineState;
    revalidate?: (c: AgentRunRequestCommand) => Revalidation;
    clock?: ReturnType<typeof createManualClock>;
    checkResources?: (command: AgentRunRequestCommand) => ResourceVerdict;
  } = {},
) {
  const clock = options.clock ?? createManualClock();
  let state = options.state ?? buildInitialEngineState();
  const started: AdmittedRun[] = [];
  const emitted: EngineEvent[] = [];
  let counter = 0;
  const scheduler = createScheduler({
    config: {
      ...DEFAULT_SCHEDULER_CONFIG,
      maxConcurrentAgents: options.max ?? 2,
      retryBaseDelay: 10,
      retryMaxDelay: 60,
    },
    clock,
    logger: silentLogger,
    getState: () => state,
    generateSessionID: () => `s${++counter}`,
    emit: (event) => emitted.push(event),
    startRun: (run) => started.push(run),
    revalidate: (command) => options.revalidate?.(command) ?? { ok: true, command },
    ...(options.checkResources !== undefined && { checkResources: options.checkResources }),
  });
  return {
    scheduler,
    clock,
    started,
    emitted,
    setState: (next: EngineState) => (state = next),
    getState: () => state,
  };
}

describe('createScheduler with a resource gate', () => {
  /** A machine with room for `room` more agents, counted down as they start and up as they end. */
  function machine(room: number) {
    const state = { room, checks: 0 };
    const check = (): ResourceVerdict => {
      state.checks += 1;
      return state.room > 0
        ? { ok: true }
        : { ok: false, detail: `memory: ${state.room} agents' worth free`, retryAt: Date.now() + 2_000 };
    };
    return { state, check };
  }

  it('always starts one run; further runs wait with reason resources and the detail, even with slots free', () => {
    const box = machine(0);
    const { scheduler, started, getState } = setup({ max: 5, checkResources: box.check });
    expect(scheduler.submit(implement('1'), getState())).toEqual([]);
    // The first run is never asked about: with nothing running, waiting could only stall.
    expect(box.state.checks).toBe(0);
    const waiting = scheduler.submit(implement('2'), getState());
    expect(waiting).toEqual([
      expect.objectContaining({
        type: 'dispatchQueued',
        reason: 'resources',
        detail: "memory: 0 agents' worth free",
      }),
    ]);
    expect(started.map((run) => run.command)).toEqual([implement('1')]);
    // Asked again with nothing changed: no second event.
    expect(scheduler.submit(implement('2'), getState())).toEqual([]);
    expect(scheduler.queuedCount()).toBe(1);
  });

  it('re-checks at retryAt and starts the waiting run once the machine has room; a finished run frees room too', () => {
    const clock = createManualClock();
    const box = machine(1);
    const check = (): ResourceVerdict =>
      box.state.room > 0
        ? { ok: true }
        : { ok: false, detail: 'memory is short', retryAt: clock.now() + 2_000 };
    const { scheduler, started, emitted, getState } = setup({
      max: 5,
      clock,
      checkResources: () => {
        const verdict = check();
        if (verdict.ok) box.state.room -= 1;
        return verdict;
      },
    });
    scheduler.submit(implement('1'), getState());
    scheduler.submit(implement('2'), getState());
    expect(started).toHaveLength(2);
    expect(scheduler.submit(implement('3'), getState())).toEqual([
      expect.objectContaining({ reason: 'resources', notBefore: clock.now() + 2_000 }),
    ]);
    clock.advance(2_000);
    expect(started).toHaveLength(2); // still short: waits again, and says nothing new
    expect(emitted.filter((event) => event.type === 'dispatchQueued')).toHaveLength(0);
    box.state.room = 1;
    clock.advance(2_000);
    expect(started.map((run) => run.command)).toEqual([implement('1'), implement('2'), implement('3')]);

    // A run ending re-checks at once, without waiting for the timer.
    expect(scheduler.submit(implement('4'), getState())).toEqual([
      expect.objectContaining({ reason: 'resources' }),
    ]);
    box.state.room = 1;
    scheduler.runFinished('s1');
    expect(started.at(-1)?.command).toEqual(implement('4'));
  });
});

describe('createScheduler: conflicting files', () => {
  it('holds a run that would change a file a running agent changes, tries the next, and starts it when that run ends', () => {
    const { scheduler, started, getState } = setup({ max: 3 });
    scheduler.submit(implement('1'), getState(), ['src/count.js', 'test/count.test.js']);
    expect(scheduler.submit(implement('2'), getState(), ['src/count.js'])).toEqual([
      expect.objectContaining({
        type: 'dispatchQueued',
        reason: 'conflict',
        notBefore: null,
        detail: 'touches src/count.js, as the run for #1 in progress does',
      }),
    ]);
    // Unknown files, or other files: no conflict.
    expect(scheduler.submit(implement('3'), getState(), null)).toEqual([]);
    expect(scheduler.submit(implement('4'), getState(), ['src/other.js'])).toEqual([]);
    expect(started.map((run) => run.command)).toEqual([implement('1'), implement('3'), implement('4')]);
    // #1 ends: #2 may run now.
    scheduler.runFinished('s1');
    expect(started.map((run) => run.command)).toEqual([
      implement('1'),
      implement('3'),
      implement('4'),
      implement('2'),
    ]);
  });

  it('hands the estimate to the started run, so the run record can be checked against its patch', () => {
    const { scheduler, started, getState } = setup({ max: 1 });
    scheduler.submit(implement('1'), getState(), ['src/a.ts']);
    scheduler.submit(implement('2'), getState(), null);
    scheduler.submit(implement('3'), getState(), ['src/b.ts']);
    scheduler.runFinished('s1');
    scheduler.runFinished('s2');
    expect(started.map((run) => run.files)).toEqual([['src/a.ts'], undefined, ['src/b.ts']]);
  });

  it('in a full queue skips the conflicting head for the next free-standing run', () => {
    const { scheduler, started, emitted, getState } = setup({ max: 2 });
    scheduler.submit(implement('1'), getState(), ['README.md']);
    scheduler.submit(implement('2'), getState(), ['lib/a.ts']);
    scheduler.submit(implement('3'), getState(), ['README.md']); // queued for capacity, would conflict
    scheduler.submit(implement('4'), getState(), ['lib/b.ts']);
    scheduler.runFinished('s2');
    expect(started.at(-1)?.command).toEqual(implement('4'));
    expect(emitted).toEqual([
      expect.objectContaining({
        reason: 'conflict',
        command: implement('3'),
        detail: expect.stringContaining('README.md'),
      }),
    ]);
  });
});

describe('createScheduler', () => {
  it('starts runs while slots are free and queues the rest as capacity waits', () => {
    const { scheduler, started, getState } = setup({ max: 2 });
    expect(scheduler.submit(implement('1'), getState())).toEqual([]);
    expect(scheduler.submit(implement('2'), getState())).toEqual([]);
    const queued = scheduler.submit(implement('3'), getState());
    expect(queued).toEqual([
      expect.objectContaining({ type: 'dispatchQueued', reason: 'capacity', notBefore: null }),
    ]);
    expect(started.map((run) => run.command)).toEqual([implement('1'), implement('2')]);
    expect(scheduler.activeCount()).toBe(2);
    expect(scheduler.queuedCount()).toBe(1);
    expect(scheduler.isKeyActive('implementor:1')).toBe(true);
    expect(scheduler.isWorkItemActive('3')).toBe(false);
  });

  it('fills a freed slot with the highest priority, then the oldest work item', () => {
    const state = buildInitialEngineState({
      workItems: {
        '1': item('1', 'low', '2026-01-01T00:00:00Z'),
        '2': item('2', 'low', '2026-01-01T00:00:00Z'),
        '3': item('3', 'low', '2026-01-01T00:00:00Z'),
        '4': item('4', 'high', '2026-03-01T00:00:00Z'),
        '5': item('5', 'high', '2026-02-01T00:00:00Z'),
      },
    });
    const { scheduler, started } = setup({ max: 1, state });
    for (const id of ['1', '2', '3', '4', '5']) scheduler.submit(implement(id), state);
    expect(started.map((run) => run.command)).toEqual([implement('1')]);
    scheduler.runFinished(started[0]!.sessionID);
    scheduler.runFinished(started[1]!.sessionID);
    scheduler.runFinished(started[2]!.sessionID);
    expect(started.map((run) => run.command)).toEqual([
      implement('1'),
      implement('5'),
      implement('4'),
      implement('2'),
    ]);
  });

  it('puts a queued review before implementation work of the same priority, but not before higher priority', () => {
    const state = buildInitialEngineState({
      workItems: {
        '1': item('1', 'medium', '2026-01-01T00:00:00Z'),
        '2': item('2', 'medium', '2026-01-01T00:00:00Z'),
        '3': item('3', 'medium', '2026-03-01T00:00:00Z'),
        '4': item('4', 'high', '2026-03-01T00:00:00Z'),
      },
    });
    const { scheduler, started } = setup({ max: 1, state });
    scheduler.submit(implement('1'), state);
    scheduler.submit(implement('2'), state);
    scheduler.submit({ type: 'requestReviewerRun', workItemID: '3', revisionID: '9' }, state);
    scheduler.submit(implement('4'), state);
    for (let i = 0; i < 3; i += 1) scheduler.runFinished(started[i]!.sessionID);
    expect(started.map((run) => run.command)).toEqual([
      implement('1'),
      implement('4'),
      { type: 'requestReviewerRun', workItemID: '3', revisionID: '9' },
      implement('2'),
    ]);
  });

  it('re-checks a queued request before starting it and drops it when it no longer applies', () => {
    const { scheduler, started, emitted, getState } = setup({
      max: 1,
      revalidate: (command) =>
        command.type === 'requestImplementorRun' && command.workItemID === '2'
          ? { ok: false, reason: '#2 is closed, not ready' }
          : { ok: true, command },
    });
    scheduler.submit(implement('1'), getState());
    scheduler.submit(implement('2'), getState());
    scheduler.submit(implement('3'), getState());
    scheduler.runFinished(started[0]!.sessionID);
    expect(emitted).toEqual([
      expect.objectContaining({
        type: 'dispatchDropped',
        command: implement('2'),
        reason: '#2 is closed, not ready',
      }),
    ]);
    expect(started.map((run) => run.command)).toEqual([implement('1'), implement('3')]);
  });

  /** Item 7's implementor failed twice, the last time at `at`: its retry waits 20 s from then. */
  const failedBefore = (at: number): EngineState =>
    buildInitialEngineState({
      failures: {
        'implementor:7': {
          attempts: 2,
          lastReason: 'error',
          lastError: 'boom',
          lastFailedAt: at,
          lastSessionID: 'x',
        },
      },
    });

  it('holds a retry until its backoff has passed, then starts it on its own', () => {
    const { scheduler, started, clock, getState, setState } = setup({ max: 3 });
    const failedAt = clock.now();
    setState(failedBefore(failedAt));
    const events = scheduler.submit(implement('7'), getState());
    expect(events).toEqual([
      expect.objectContaining({ type: 'dispatchQueued', reason: 'backoff', notBefore: failedAt + 20_000 }),
    ]);
    clock.advance(19_999);
    expect(started).toEqual([]);
    clock.advance(1);
    expect(started.map((run) => run.command)).toEqual([implement('7')]);
    expect(scheduler.queuedCount()).toBe(0);
  });

  it('starts a retry whose timer fired a millisecond early by the clock (it is due on the next reading)', () => {
    const { scheduler, started, clock, getState, setState } = setup({
      max: 3,
      clock: createEarlyFiringClock(),
    });
    setState(failedBefore(clock.now()));
    scheduler.submit(implement('7'), getState());
    clock.advance(20_000);
    expect(started.map((run) => run.command)).toEqual([implement('7')]);
    expect(scheduler.queuedCount()).toBe(0);
  });

  it('leaves a due retry to the run that frees a slot, with no timer spinning meanwhile', () => {
    const { scheduler, started, clock, getState, setState } = setup({ max: 1 });
    scheduler.submit(implement('1'), getState());
    setState(failedBefore(clock.now()));
    scheduler.submit(implement('7'), getState());
    clock.advance(20_000);
    expect(started.map((run) => run.command)).toEqual([implement('1')]);
    expect(clock.pendingTimers()).toBe(0);
    scheduler.runFinished(started[0]?.sessionID ?? '');
    expect(started.map((run) => run.command)).toEqual([implement('1'), implement('7')]);
  });

  it('does not report a request that is already queued the same way again', () => {
    const { scheduler, getState } = setup({ max: 1 });
    scheduler.submit(implement('1'), getState());
    expect(scheduler.submit(implement('2'), getState())).toHaveLength(1);
    expect(scheduler.submit(implement('2'), getState())).toEqual([]);
    expect(scheduler.queuedCount()).toBe(1);
  });

  it('starts a backed-off request at once when a human cleared its failures', () => {
    const { scheduler, started, clock } = setup({ max: 2 });
    const failing = buildInitialEngineState({
      failures: {
        'implementor:7': {
          attempts: 1,
          lastReason: 'error',
          lastError: 'x',
          lastFailedAt: clock.now(),
          lastSessionID: 's',
        },
      },
    });
    scheduler.submit(implement('7'), failing);
    expect(started).toEqual([]);
    scheduler.submit(implement('7'), buildInitialEngineState());
    expect(started.map((run) => run.command)).toEqual([implement('7')]);
    expect(scheduler.queuedCount()).toBe(0);
  });

  it('on stop drops the queue, reports each drop and refuses new requests', () => {
    const { scheduler, emitted, getState } = setup({ max: 1 });
    scheduler.submit(implement('1'), getState());
    scheduler.submit(implement('2'), getState());
    scheduler.stop();
    expect(emitted).toEqual([expect.objectContaining({ type: 'dispatchDropped', command: implement('2') })]);
    expect(scheduler.submit(implement('3'), getState())).toEqual([
      expect.objectContaining({ type: 'dispatchDropped', reason: 'engine is shutting down' }),
    ]);
    expect(scheduler.queuedCount()).toBe(0);
  });

  it('drops one queued request on demand, reporting it; an admitted run and an unknown key are untouched', () => {
    const { scheduler, started, getState } = setup({ max: 1 });
    scheduler.submit(implement('1'), getState());
    scheduler.submit(implement('2'), getState());
    expect(scheduler.drop('implementor:1', 'moot')).toEqual([]);
    expect(scheduler.drop('implementor:9', 'moot')).toEqual([]);
    expect(scheduler.drop('implementor:2', 'moot')).toEqual([
      expect.objectContaining({ type: 'dispatchDropped', command: implement('2'), reason: 'moot' }),
    ]);
    expect(scheduler.queuedCount()).toBe(0);
    expect(scheduler.activeCount()).toBe(1);
    // The slot frees: nothing queued starts.
    scheduler.runFinished(scheduler.activeSessionIDs()[0] ?? '');
    expect(started.map((run) => run.command)).toEqual([implement('1')]);
  });

  it('ignores the end of a run it does not know', () => {
    const { scheduler, getState } = setup({ max: 1 });
    scheduler.submit(implement('1'), getState());
    scheduler.runFinished('unknown');
    expect(scheduler.activeCount()).toBe(1);
  });
});
