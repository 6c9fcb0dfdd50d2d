import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentResult } from '../../domain/index.ts';
import {
  AgentRunFailure,
  type ImplementorStartParams,
  type PlannerStartParams,
  type ReviewerStartParams,
} from '../../engine/runtime-contract/index.ts';
import { buildImplementorResult, buildPlannerResult, buildReviewerResult } from './build-scripted-results.ts';
import {
  buildFailureRun,
  buildHangingRun,
  buildProvisioningFailureRun,
  buildResultRun,
} from './build-scripted-runs.ts';
import { createScriptedAdapter, DEFAULT_SCRIPTED_USAGE } from './create-scripted-adapter.ts';
import type { ScriptedTimers } from './scripted-timers.ts';

const planner = (sessionID = 'p-1'): PlannerStartParams => ({
  role: 'planner',
  sessionID,
  prompt: 'Plan docs/a.md',
  specPaths: ['docs/a.md'],
  specSHAs: { 'docs/a.md': 'a'.repeat(40) },
});
const implementor = (sessionID = 'i-1', workItemID = '7'): ImplementorStartParams => ({
  role: 'implementor',
  sessionID,
  prompt: `Implement #${workItemID}`,
  workItemID,
  branchName: `flotilla/${workItemID}`,
});
const reviewer = (sessionID = 'r-1'): ReviewerStartParams => ({
  role: 'reviewer',
  sessionID,
  prompt: 'Review #7',
  workItemID: '7',
  revisionID: '9',
});

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

/** The failure a promise rejects with (fails the test if it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<AgentRunFailure> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(AgentRunFailure);
  return error as AgentRunFailure;
}

/** True when the promise has settled after all pending microtasks ran. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return settled;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createScriptedAdapter: completing runs', () => {
  it('streams the output chunks, then resolves the result, with default log path and usage', async () => {
    const result = buildImplementorResult('completed', { summary: 'done' });
    const adapter = createScriptedAdapter({
      implementor: [buildResultRun(result, { output: ['Reading…\n', { text: 'Writing…\n' }] })],
    });
    const handle = await adapter.startAgent(implementor());
    expect(handle.logFilePath).toBe('/logs/i-1.log');
    expect(handle.usage?.()).toBeNull();
    expect(await collect(handle.output)).toEqual(['Reading…\n', 'Writing…\n']);
    expect(await handle.result).toEqual(result);
    expect(handle.usage?.()).toEqual(DEFAULT_SCRIPTED_USAGE);
    expect(adapter.control.session('i-1')).toMatchObject({
      status: 'completed',
      output: ['Reading…\n', 'Writing…\n'],
      result,
      failure: null,
    });
  });

  it('serves each role from its own queue, in order, and reports what is left', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildResultRun(buildPlannerResult({ close: ['1'] }))],
      reviewer: [
        buildResultRun(buildReviewerResult('needs-changes')),
        buildResultRun(buildReviewerResult('approve')),
      ],
    });
    expect(adapter.control.remaining('reviewer')).toBe(2);
    const first = await adapter.startAgent(reviewer('r-1'));
    const plan = await adapter.startAgent(planner());
    const second = await adapter.startAgent(reviewer('r-2'));
    expect(await first.result).toMatchObject({ review: { verdict: 'needs-changes' } });
    expect(await second.result).toMatchObject({ review: { verdict: 'approve' } });
    expect(await plan.result).toMatchObject({ role: 'planner', close: ['1'] });
    expect(adapter.control.remaining('reviewer')).toBe(0);
    expect(adapter.control.remaining('implementor')).toBe(0);
  });

  it('does not consume the caller’s script array', async () => {
    const runs = [buildResultRun(buildPlannerResult())];
    const adapter = createScriptedAdapter({ planner: runs });
    await (await adapter.startAgent(planner())).result;
    expect(runs).toHaveLength(1);
  });

  it('asks a role function for each run with the params and the run indexes', async () => {
    const calls: unknown[] = [];
    const adapter = createScriptedAdapter({
      implementor: async (params, context) => {
        calls.push({ params, context });
        const workItemID = params.role === 'implementor' ? params.workItemID : '?';
        return buildResultRun(buildImplementorResult('blocked', { summary: `blocked on ${workItemID}` }));
      },
      planner: () => buildResultRun(buildPlannerResult()),
    });
    await adapter.startAgent(planner('p-1'));
    const handle = await adapter.startAgent(implementor('i-1', '3'));
    await adapter.startAgent(implementor('i-2', '4'));
    expect(await handle.result).toEqual({
      role: 'implementor',
      outcome: 'blocked',
      summary: 'blocked on 3',
      patch: null,
    });
    expect(calls).toEqual([
      { params: implementor('i-1', '3'), context: { index: 1, roleIndex: 0 } },
      { params: implementor('i-2', '4'), context: { index: 2, roleIndex: 1 } },
    ]);
  });

  it('uses enqueued runs before the role function', async () => {
    const adapter = createScriptedAdapter({ reviewer: () => buildResultRun(buildReviewerResult('approve')) });
    adapter.control.enqueue('reviewer', buildResultRun(buildReviewerResult('needs-changes')));
    expect(adapter.control.remaining('reviewer')).toBe(1);
    const first = await adapter.startAgent(reviewer('r-1'));
    const second = await adapter.startAgent(reviewer('r-2'));
    expect(await first.result).toMatchObject({ review: { verdict: 'needs-changes' } });
    expect(await second.result).toMatchObject({ review: { verdict: 'approve' } });
  });

  it('enqueue adds to a role that had no script', async () => {
    const adapter = createScriptedAdapter({});
    adapter.control.enqueue(
      'planner',
      buildResultRun(buildPlannerResult()),
      buildResultRun(buildPlannerResult()),
    );
    expect(adapter.control.remaining('planner')).toBe(2);
    await adapter.startAgent(planner());
    expect(adapter.control.remaining('planner')).toBe(1);
  });

  it('resolves a deep copy: mutating the result changes neither the script nor the record', async () => {
    const result = buildPlannerResult({ close: ['1'] });
    const adapter = createScriptedAdapter({ planner: () => buildResultRun(result) });
    const resolved = await (await adapter.startAgent(planner('p-1'))).result;
    if (resolved.role === 'planner') resolved.close.push('2');
    expect(result.close).toEqual(['1']);
    expect(adapter.control.session('p-1')?.result).toEqual(buildPlannerResult({ close: ['1'] }));
    expect(await (await adapter.startAgent(planner('p-2'))).result).toEqual(
      buildPlannerResult({ close: ['1'] }),
    );
  });

  it('lets output go unconsumed without blocking the result', async () => {
    const output = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`);
    const adapter = createScriptedAdapter({ planner: [buildResultRun(buildPlannerResult(), { output })] });
    const handle = await adapter.startAgent(planner());
    await expect(handle.result).resolves.toMatchObject({ role: 'planner' });
    expect(await collect(handle.output)).toHaveLength(1000);
  });

  it('lets output be read again from the start, and read after the run ended', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildResultRun(buildPlannerResult(), { output: ['a', 'b'] })],
    });
    const handle = await adapter.startAgent(planner());
    await handle.result;
    expect(await collect(handle.output)).toEqual(['a', 'b']);
    expect(await collect(handle.output)).toEqual(['a', 'b']);
  });

  it('is "starting" until startAgent resolves; output emitted before anyone reads is kept', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildResultRun(buildPlannerResult(), { output: ['a'] })],
    });
    const pending = adapter.startAgent(planner());
    expect(adapter.control.session('p-1')?.status).toBe('starting');
    expect(adapter.control.activeSessionIDs()).toEqual(['p-1']);
    const handle = await pending;
    await handle.result;
    expect(await collect(handle.output)).toEqual(['a']);
    expect(adapter.control.session('p-1')?.output).toEqual(['a']);
  });
});

describe('createScriptedAdapter: result validation (as the real adapter guarantees)', () => {
  it('fails a completed implementor run without a patch', async () => {
    const adapter = createScriptedAdapter({
      implementor: [
        buildResultRun({ role: 'implementor', outcome: 'completed', summary: 's', patch: null }),
        buildResultRun({ role: 'implementor', outcome: 'completed', summary: 's', patch: '  \n' }),
      ],
    });
    for (const id of ['i-1', 'i-2']) {
      const failure = await failureOf((await adapter.startAgent(implementor(id))).result);
      expect(failure.reason).toBe('no-changes');
      expect(failure.message).toContain('empty patch');
    }
    expect(adapter.control.session('i-1')?.status).toBe('failed');
  });

  it('drops the patch of a non-completed implementor outcome', async () => {
    const adapter = createScriptedAdapter({
      implementor: [
        buildResultRun({ role: 'implementor', outcome: 'validation-failure', summary: 's', patch: 'diff' }),
      ],
    });
    expect(await (await adapter.startAgent(implementor())).result).toMatchObject({
      outcome: 'validation-failure',
      patch: null,
    });
  });

  it('fails a run whose result is for another role', async () => {
    const adapter = createScriptedAdapter({ reviewer: [buildResultRun(buildPlannerResult())] });
    const failure = await failureOf((await adapter.startAgent(reviewer())).result);
    expect(failure).toMatchObject({
      reason: 'error',
      message: 'scripted reviewer run produced a planner result',
    });
  });
});

describe('createScriptedAdapter: failures', () => {
  it.each(['error', 'timeout', 'cancelled'] as const)(
    'rejects the result with reason %s and ends output',
    async (reason) => {
      const adapter = createScriptedAdapter({
        planner: [buildFailureRun(reason, `went ${reason}`, { output: ['partial'] })],
      });
      const handle = await adapter.startAgent(planner());
      const failure = await failureOf(handle.result);
      expect(failure).toMatchObject({ name: 'AgentRunFailure', reason, message: `went ${reason}` });
      expect(await collect(handle.output)).toEqual(['partial']);
      expect(handle.usage?.()).toEqual(DEFAULT_SCRIPTED_USAGE);
      expect(adapter.control.session('p-1')).toMatchObject({
        status: reason === 'cancelled' ? 'cancelled' : 'failed',
        failure: { reason, message: `went ${reason}` },
      });
      // A scripted cancelled ending is not a cancel by the engine.
      expect(adapter.control.cancelledSessionIDs()).toEqual([]);
    },
  );

  it('rejects startAgent on a provisioning failure; the session never becomes active', async () => {
    const adapter = createScriptedAdapter({
      implementor: [buildProvisioningFailureRun('worktree setup failed')],
    });
    const failure = await failureOf(adapter.startAgent(implementor()));
    expect(failure).toMatchObject({ reason: 'error', message: 'worktree setup failed' });
    expect(adapter.control.session('i-1')).toMatchObject({
      status: 'provisioning-failed',
      failure: { reason: 'error', message: 'worktree setup failed' },
    });
    expect(adapter.control.activeSessionIDs()).toEqual([]);
    expect(await adapter.control.waitForSettled(1)).toHaveLength(1);
  });

  it('rejects startAgent when the role has no run left', async () => {
    const adapter = createScriptedAdapter({ planner: [] });
    const failure = await failureOf(adapter.startAgent(planner()));
    expect(failure.message).toBe('scripted adapter: no scripted run left for role planner (session p-1)');
    expect(adapter.control.session('p-1')?.status).toBe('provisioning-failed');
  });

  it('rejects startAgent when the role function throws', async () => {
    const adapter = createScriptedAdapter({
      reviewer: () => {
        throw new Error('no context');
      },
    });
    const failure = await failureOf(adapter.startAgent(reviewer()));
    expect(failure).toMatchObject({ reason: 'error', message: 'no context' });
  });

  it('rejects a second start with the same sessionID', async () => {
    const adapter = createScriptedAdapter({ planner: [buildHangingRun(), buildHangingRun()] });
    await adapter.startAgent(planner('same'));
    await expect(adapter.startAgent(planner('same'))).rejects.toThrow('session same was already started');
    expect(adapter.control.remaining('planner')).toBe(1);
  });
});

describe('createScriptedAdapter: cancellation', () => {
  it('cancelAgent ends a hanging session: result rejects cancelled, output ends, reader is released', async () => {
    const adapter = createScriptedAdapter({ implementor: [buildHangingRun({ output: ['working'] })] });
    const handle = await adapter.startAgent(implementor());
    const reading = collect(handle.output);
    expect(await isSettled(handle.result)).toBe(false);
    expect(await isSettled(reading)).toBe(false);
    expect(adapter.control.activeSessionIDs()).toEqual(['i-1']);

    adapter.cancelAgent('i-1');
    expect((await failureOf(handle.result)).reason).toBe('cancelled');
    expect(await reading).toEqual(['working']);
    expect(adapter.control.activeSessionIDs()).toEqual([]);
    expect(adapter.control.cancelledSessionIDs()).toEqual(['i-1']);
    expect(adapter.control.session('i-1')).toMatchObject({ status: 'cancelled', cancelRequested: true });
  });

  it('cancels by the engine’s sessionID, leaving other sessions running', async () => {
    const adapter = createScriptedAdapter({ implementor: [buildHangingRun(), buildHangingRun()] });
    const a = await adapter.startAgent(implementor('engine-uuid-a', '1'));
    const b = await adapter.startAgent(implementor('engine-uuid-b', '2'));
    adapter.cancelAgent('engine-uuid-b');
    expect((await failureOf(b.result)).reason).toBe('cancelled');
    expect(await isSettled(a.result)).toBe(false);
    expect(adapter.control.activeSessionIDs()).toEqual(['engine-uuid-a']);
  });

  it('ignores unknown ids, repeated cancels and cancels after the end, but records the requests', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildResultRun(buildPlannerResult())],
      reviewer: [buildHangingRun()],
    });
    expect(() => adapter.cancelAgent('nope')).not.toThrow();
    const done = await adapter.startAgent(planner());
    await done.result;
    adapter.cancelAgent('p-1');
    await expect(done.result).resolves.toMatchObject({ role: 'planner' });
    expect(adapter.control.session('p-1')).toMatchObject({ status: 'completed', cancelRequested: false });

    const hanging = await adapter.startAgent(reviewer());
    adapter.cancelAgent('r-1');
    adapter.cancelAgent('r-1');
    expect((await failureOf(hanging.result)).reason).toBe('cancelled');
    expect(adapter.control.cancelRequests()).toEqual(['nope', 'p-1', 'r-1', 'r-1']);
    expect(adapter.control.cancelledSessionIDs()).toEqual(['r-1']);
  });

  it('a cancel while starting makes startAgent reject with reason cancelled', async () => {
    vi.useFakeTimers();
    const adapter = createScriptedAdapter({ implementor: [buildHangingRun({ startDelayMs: 5000 })] });
    const starting = adapter.startAgent(implementor());
    await vi.advanceTimersByTimeAsync(10);
    expect(adapter.control.activeSessionIDs()).toEqual(['i-1']);
    adapter.cancelAgent('i-1');
    adapter.cancelAgent('i-1');
    const failure = await failureOf(starting);
    expect(failure.reason).toBe('cancelled');
    expect(adapter.control.session('i-1')).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(adapter.control.cancelledSessionIDs()).toEqual(['i-1']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a cancel before the role function returns also rejects startAgent', async () => {
    let release: (run: ReturnType<typeof buildHangingRun>) => void = () => {};
    const adapter = createScriptedAdapter({
      planner: () =>
        new Promise((resolve) => {
          release = resolve;
        }),
    });
    const starting = adapter.startAgent(planner());
    await Promise.resolve();
    adapter.cancelAgent('p-1');
    release(buildHangingRun());
    expect((await failureOf(starting)).reason).toBe('cancelled');
  });

  it('cancel clears pending timers (no timer leaks after a cancel)', async () => {
    vi.useFakeTimers();
    const adapter = createScriptedAdapter(
      {
        planner: [
          buildResultRun(buildPlannerResult(), {
            output: [{ text: 'late', delayMs: 60_000 }],
            delayMs: 1000,
          }),
        ],
      },
      { maxDurationMs: 120_000 },
    );
    const handle = await adapter.startAgent(planner());
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(2);
    adapter.cancelAgent('p-1');
    expect((await failureOf(handle.result)).reason).toBe('cancelled');
    expect(vi.getTimerCount()).toBe(0);
    expect(await collect(handle.output)).toEqual([]);
  });
});

describe('createScriptedAdapter: finishing sessions from the test', () => {
  it('control.resolve ends a hanging session with a result', async () => {
    const adapter = createScriptedAdapter({ reviewer: [buildHangingRun({ output: ['thinking'] })] });
    const handle = await adapter.startAgent(reviewer());
    const reading = collect(handle.output);
    adapter.control.resolve('r-1', buildReviewerResult('approve', { summary: 'fine' }));
    expect(await handle.result).toEqual(buildReviewerResult('approve', { summary: 'fine' }));
    expect(await reading).toEqual(['thinking']);
    expect(adapter.control.session('r-1')?.status).toBe('completed');
  });

  it('control.resolve validates like a scripted result', async () => {
    const adapter = createScriptedAdapter({ implementor: [buildHangingRun()] });
    const handle = await adapter.startAgent(implementor());
    adapter.control.resolve('i-1', { role: 'implementor', outcome: 'completed', summary: 's', patch: '' });
    expect((await failureOf(handle.result)).message).toContain('empty patch');
  });

  it('control.reject ends a hanging session with a failure of the given reason', async () => {
    const adapter = createScriptedAdapter({ planner: [buildHangingRun()] });
    const handle = await adapter.startAgent(planner());
    adapter.control.reject('p-1', 'timeout', 'stalled');
    expect(await failureOf(handle.result)).toMatchObject({ reason: 'timeout', message: 'stalled' });
    expect(adapter.control.session('p-1')).toMatchObject({
      status: 'failed',
      failure: { reason: 'timeout' },
    });
  });

  it('control.resolve/reject/emit/ping throw for unknown or ended sessions', async () => {
    const adapter = createScriptedAdapter({ planner: [buildResultRun(buildPlannerResult())] });
    await (await adapter.startAgent(planner())).result;
    const result: AgentResult = buildPlannerResult();
    expect(() => adapter.control.resolve('nope', result)).toThrow('unknown session nope');
    expect(() => adapter.control.resolve('p-1', result)).toThrow('session p-1 is not running (completed)');
    expect(() => adapter.control.reject('p-1', 'error', 'x')).toThrow('is not running');
    expect(() => adapter.control.emit('p-1', 'x')).toThrow('is not running');
    expect(() => adapter.control.ping('p-1')).toThrow('is not running');
  });

  it('control.emit streams a chunk on a running session', async () => {
    const adapter = createScriptedAdapter({ planner: [buildHangingRun()] });
    const handle = await adapter.startAgent(planner());
    const iterator = handle.output[Symbol.asyncIterator]();
    const next = iterator.next();
    adapter.control.emit('p-1', 'hello');
    expect(await next).toEqual({ value: 'hello', done: false });
    expect(adapter.control.session('p-1')?.output).toEqual(['hello']);
    adapter.cancelAgent('p-1');
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    await expect(handle.result).rejects.toBeInstanceOf(AgentRunFailure);
  });
});

describe('createScriptedAdapter: activity', () => {
  it('fires activity listeners for scripted activity steps and control.ping; unsubscribe stops them', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildHangingRun({ output: [{ activity: true }, 'text', { activity: true }] })],
    });
    const handle = await adapter.startAgent(planner());
    const pings: string[] = [];
    const unsubscribeA = handle.onActivity?.(() => pings.push('a')) ?? (() => {});
    handle.onActivity?.(() => pings.push('b'));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(pings).toEqual(['a', 'b', 'a', 'b']);
    unsubscribeA();
    adapter.control.ping('p-1');
    expect(pings).toEqual(['a', 'b', 'a', 'b', 'b']);
    expect(adapter.control.session('p-1')?.output).toEqual(['text']);
    adapter.cancelAgent('p-1');
    await expect(handle.result).rejects.toThrow('run cancelled');
  });

  it('a listener that throws fails the run with reason error', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildHangingRun({ output: [{ activity: true, delayMs: 0 }] })],
    });
    const handle = await adapter.startAgent(planner());
    handle.onActivity?.(() => {
      throw new Error('listener broke');
    });
    expect(await failureOf(handle.result)).toMatchObject({ reason: 'error', message: 'listener broke' });
  });

  it('subscribing after the end registers nothing', async () => {
    const adapter = createScriptedAdapter({ planner: [buildResultRun(buildPlannerResult())] });
    const handle = await adapter.startAgent(planner());
    await handle.result;
    const listener = vi.fn();
    const unsubscribe = handle.onActivity?.(listener);
    expect(unsubscribe).toBeTypeOf('function');
    unsubscribe?.();
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('createScriptedAdapter: timing', () => {
  it('needs no timers by default, so it runs under fake timers without advancing them', async () => {
    vi.useFakeTimers();
    const adapter = createScriptedAdapter({
      planner: [buildResultRun(buildPlannerResult(), { output: ['a', { text: 'b' }, { activity: true }] })],
    });
    const handle = await adapter.startAgent(planner());
    expect(await handle.result).toMatchObject({ role: 'planner' });
    expect(await collect(handle.output)).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('honours start, step and end delays under Vitest fake timers', async () => {
    vi.useFakeTimers();
    const adapter = createScriptedAdapter({
      reviewer: [
        buildResultRun(buildReviewerResult(), {
          startDelayMs: 100,
          output: ['now', { text: 'after 1s', delayMs: 1000 }, { activity: true, delayMs: 500 }],
          delayMs: 2000,
        }),
      ],
    });
    const starting = adapter.startAgent(reviewer());
    expect(await isSettled(starting)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    const handle = await starting;
    const pings = vi.fn();
    handle.onActivity?.(pings);
    await vi.advanceTimersByTimeAsync(0);
    expect(adapter.control.session('r-1')?.output).toEqual(['now']);
    await vi.advanceTimersByTimeAsync(999);
    expect(adapter.control.session('r-1')?.output).toEqual(['now']);
    await vi.advanceTimersByTimeAsync(1);
    expect(adapter.control.session('r-1')?.output).toEqual(['now', 'after 1s']);
    await vi.advanceTimersByTimeAsync(500);
    expect(pings).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(await isSettled(handle.result)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await handle.result).toMatchObject({ role: 'reviewer' });
  });

  it('uses injected timers', async () => {
    const scheduled: { callback: () => void; ms: number; cleared: boolean }[] = [];
    const timers: ScriptedTimers = {
      setTimeout: (callback, ms) => {
        const entry = { callback, ms, cleared: false };
        scheduled.push(entry);
        return entry;
      },
      clearTimeout: (timer) => {
        (timer as { cleared: boolean }).cleared = true;
      },
    };
    const adapter = createScriptedAdapter(
      { planner: [buildResultRun(buildPlannerResult(), { delayMs: 250 })] },
      { timers },
    );
    const handle = await adapter.startAgent(planner());
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(scheduled.map((entry) => entry.ms)).toEqual([250]);
    expect(await isSettled(handle.result)).toBe(false);
    scheduled[0]?.callback();
    expect(await handle.result).toMatchObject({ role: 'planner' });
  });

  it('fails a run that exceeds maxDurationMs with reason timeout', async () => {
    vi.useFakeTimers();
    const adapter = createScriptedAdapter({ implementor: [buildHangingRun()] }, { maxDurationMs: 30_000 });
    const handle = await adapter.startAgent(implementor());
    await vi.advanceTimersByTimeAsync(29_999);
    expect(await isSettled(handle.result)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await failureOf(handle.result)).toMatchObject({
      reason: 'timeout',
      message: 'run exceeded the maximum duration of 30000 ms',
    });
    expect(adapter.control.session('i-1')?.status).toBe('failed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a run that finishes in time clears its time limit', async () => {
    vi.useFakeTimers();
    const adapter = createScriptedAdapter(
      { planner: [buildResultRun(buildPlannerResult(), { delayMs: 10 })] },
      { maxDurationMs: 30_000 },
    );
    const handle = await adapter.startAgent(planner());
    await vi.advanceTimersByTimeAsync(10);
    await handle.result;
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('createScriptedAdapter: log path and usage', () => {
  it('takes the log path from a function, null, or the run', async () => {
    const byFunction = createScriptedAdapter(
      {
        planner: [
          buildResultRun(buildPlannerResult()),
          buildResultRun(buildPlannerResult(), { logFilePath: '/x.log' }),
        ],
      },
      { logFilePath: (params) => `/tmp/${params.role}-${params.sessionID}.jsonl` },
    );
    expect((await byFunction.startAgent(planner('a'))).logFilePath).toBe('/tmp/planner-a.jsonl');
    expect((await byFunction.startAgent(planner('b'))).logFilePath).toBe('/x.log');

    const none = createScriptedAdapter(
      { planner: [buildResultRun(buildPlannerResult())] },
      { logFilePath: null },
    );
    expect((await none.startAgent(planner())).logFilePath).toBeNull();
  });

  it('reports the configured usage, the run’s override, or null', async () => {
    const usage = { costUSD: 1.5, inputTokens: 10, outputTokens: 20, turns: 2 };
    const adapter = createScriptedAdapter(
      {
        planner: [
          buildResultRun(buildPlannerResult()),
          buildResultRun(buildPlannerResult(), { usage: null }),
          buildFailureRun('error', 'x', { usage: { ...usage, turns: 9 } }),
        ],
      },
      { usage },
    );
    const first = await adapter.startAgent(planner('1'));
    await first.result;
    expect(first.usage?.()).toEqual(usage);
    const second = await adapter.startAgent(planner('2'));
    await second.result;
    expect(second.usage?.()).toBeNull();
    const third = await adapter.startAgent(planner('3'));
    await third.result.catch(() => {});
    expect(third.usage?.()).toEqual({ ...usage, turns: 9 });
  });
});

describe('createScriptedAdapter: control inspection and waiting', () => {
  it('records every start’s params in order, as copies', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildHangingRun()],
      implementor: [buildProvisioningFailureRun('no worktree')],
    });
    const params = planner();
    await adapter.startAgent(params);
    params.specPaths.push('mutated');
    await adapter.startAgent(implementor()).catch(() => {});
    expect(adapter.control.startedParams()).toEqual([planner(), implementor()]);
    const copy = adapter.control.startedParams()[0];
    if (copy?.role === 'planner') copy.specPaths.push('mutated');
    expect(adapter.control.startedParams()[0]).toEqual(planner());
    const sessions = adapter.control.sessions();
    sessions[0]?.output.push('mutated');
    expect(
      adapter.control.sessions().map((session) => [session.sessionID, session.role, session.status]),
    ).toEqual([
      ['p-1', 'planner', 'running'],
      ['i-1', 'implementor', 'provisioning-failed'],
    ]);
    expect(adapter.control.session('p-1')?.output).toEqual([]);
    expect(adapter.control.session('missing')).toBeNull();
  });

  it('waitForStarted resolves once N sessions have started', async () => {
    const adapter = createScriptedAdapter({ implementor: () => buildHangingRun() });
    const waiting = adapter.control.waitForStarted(2);
    await adapter.startAgent(implementor('a', '1'));
    expect(await isSettled(waiting)).toBe(false);
    await adapter.startAgent(implementor('b', '2'));
    const started = await waiting;
    expect(started.map((session) => session.sessionID)).toEqual(['a', 'b']);
    // Already satisfied: resolves at once.
    expect(await adapter.control.waitForStarted(1)).toHaveLength(2);
  });

  it('waitForStarted does not count provisioning failures', async () => {
    const adapter = createScriptedAdapter({
      planner: [buildProvisioningFailureRun('nope'), buildHangingRun()],
    });
    const waiting = adapter.control.waitForStarted(1);
    await adapter.startAgent(planner('p-1')).catch(() => {});
    expect(await isSettled(waiting)).toBe(false);
    await adapter.startAgent(planner('p-2'));
    expect((await waiting).map((session) => session.sessionID)).toEqual(['p-2']);
  });

  it('waitForSettled resolves once N sessions have ended', async () => {
    const adapter = createScriptedAdapter({ reviewer: () => buildHangingRun() });
    const first = await adapter.startAgent(reviewer('r-1'));
    await adapter.startAgent(reviewer('r-2'));
    const waiting = adapter.control.waitForSettled(2);
    adapter.cancelAgent('r-1');
    await expect(first.result).rejects.toBeInstanceOf(AgentRunFailure);
    expect(await isSettled(waiting)).toBe(false);
    adapter.control.resolve('r-2', buildReviewerResult());
    expect((await waiting).map((session) => session.status)).toEqual(['cancelled', 'completed']);
  });
});
