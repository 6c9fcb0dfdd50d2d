import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import type { AgentResult, EngineEvent } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentRunRequest,
  type AgentStartParams,
  type RuntimeAdapter,
} from '../runtime-contract/runtime-contract.ts';
import { createRunRegistry } from './run-registry.ts';
import { startAgentAsync } from './start-agent-async.ts';

interface Controlled {
  push(chunk: string): void;
  activity(): void;
  resolve(result: AgentResult): void;
  reject(error: Error): void;
}

/** An adapter whose sessions the test drives by hand, to reach each edge of the run lifecycle. */
function handAdapter(options: { provisioning?: Promise<void> } = {}) {
  const sessions = new Map<string, Controlled>();
  const cancelled: string[] = [];
  const adapter: RuntimeAdapter = {
    async startAgent(params) {
      await options.provisioning;
      const chunks: (string | null)[] = [];
      let wake: (() => void) | null = null;
      const listeners = new Set<() => void>();
      let settle!: { resolve: (r: AgentResult) => void; reject: (e: Error) => void };
      const result = new Promise<AgentResult>((resolve, reject) => {
        settle = { resolve, reject };
      });
      const end = () => {
        chunks.push(null);
        wake?.();
      };
      result.then(end, end);
      sessions.set(params.sessionID, {
        push(chunk) {
          chunks.push(chunk);
          wake?.();
        },
        activity: () => {
          for (const listener of listeners) listener();
        },
        resolve: settle.resolve,
        reject: settle.reject,
      });
      const handle: AgentRunHandle = {
        logFilePath: `/logs/${params.sessionID}.log`,
        result,
        usage: () => ({ costUSD: 0.25, inputTokens: 100, outputTokens: 20, turns: 3 }),
        onActivity(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        output: {
          async *[Symbol.asyncIterator]() {
            while (true) {
              const next = chunks.shift();
              if (next === undefined) {
                await new Promise<void>((resolve) => {
                  wake = resolve;
                });
                continue;
              }
              if (next === null) return;
              yield next;
            }
          },
        },
      };
      return handle;
    },
    cancelAgent(sessionID) {
      cancelled.push(sessionID);
      sessions.get(sessionID)?.reject(new AgentRunFailure('cancelled', 'cancelled by request'));
    },
  };
  return { adapter, sessions, cancelled };
}

const implementorParams: AgentRunRequest = {
  role: 'implementor',
  sessionID: 's1',
  workItemID: '4',
  branchName: 'flotilla/4',
};

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Stands in for context assembly (tested in context-assembly/): the prompt names the session. */
const promptFor = async (request: AgentRunRequest): Promise<AgentStartParams> => ({
  ...request,
  prompt: `the prompt of ${request.sessionID}`,
});

function run(
  adapter: RuntimeAdapter,
  params = implementorParams,
  stallTimeoutMs = 0,
  assembleContext = promptFor,
) {
  const events: EngineEvent[] = [];
  const finished: string[] = [];
  const registry = createRunRegistry();
  const clock = createManualClock();
  const done = startAgentAsync(params, {
    adapter,
    assembleContext,
    registry,
    emit: (event) => events.push(event),
    clock,
    logger: silentLogger,
    stallTimeoutMs,
    onFinished: (sessionID) => finished.push(sessionID),
  });
  return { events, finished, registry, clock, done };
}

describe('startAgentAsync', () => {
  it("records the adapter's runtime name on the started event", async () => {
    const { adapter, sessions } = handAdapter();
    const { events, done } = run({ ...adapter, runtime: 'scripted' });
    await tick();
    expect(events[0]).toEqual(expect.objectContaining({ type: 'implementorStarted', runtime: 'scripted' }));
    sessions.get('s1')!.resolve({ role: 'implementor', outcome: 'completed', summary: 's', patch: null });
    await done;
  });
  it('reports started then completed with the role fields, log path and usage', async () => {
    const { adapter, sessions } = handAdapter();
    const { events, finished, done, registry } = run(adapter);
    await tick();
    expect(events.map((e) => e.type)).toEqual(['implementorStarted']);
    const stream = registry.getStream('s1');
    expect(stream).not.toBeNull();
    sessions.get('s1')!.push('working…');
    sessions
      .get('s1')!
      .resolve({ role: 'implementor', outcome: 'blocked', summary: 'needs a decision', patch: null });
    await done;
    expect(events[1]).toEqual(
      expect.objectContaining({
        type: 'implementorCompleted',
        sessionID: 's1',
        workItemID: '4',
        branchName: 'flotilla/4',
        logFilePath: '/logs/s1.log',
        usage: { costUSD: 0.25, inputTokens: 100, outputTokens: 20, turns: 3 },
      }),
    );
    const seen: string[] = [];
    for await (const chunk of stream!.subscribe()) seen.push(chunk);
    expect(seen).toEqual(['working…']);
    expect(finished).toEqual(['s1']);
    expect(registry.getStream('s1')).toBeNull();
  });

  it('turns a provisioning failure into a failed event with no started event', async () => {
    const adapter: RuntimeAdapter = {
      startAgent: () => Promise.reject(new Error('git worktree add failed')),
      cancelAgent: () => {},
    };
    const { events, finished, done } = run(adapter);
    await done;
    expect(events).toEqual([
      expect.objectContaining({
        type: 'implementorFailed',
        reason: 'error',
        error: 'provisioning failed: git worktree add failed',
        logFilePath: null,
      }),
    ]);
    expect(finished).toEqual(['s1']);
  });

  it('gives the runtime the request with the prompt context assembly built, nothing else', async () => {
    const received: AgentStartParams[] = [];
    const adapter: RuntimeAdapter = {
      startAgent: (params) => {
        received.push(params);
        return Promise.reject(new Error('stop here'));
      },
      cancelAgent: () => {},
    };
    await run(adapter).done;
    expect(received).toEqual([{ ...implementorParams, prompt: 'the prompt of s1' }]);
    // Plain data: what a remote worker would receive is the same.
    expect(structuredClone(received[0])).toEqual(received[0]);
  });

  it('fails the run (requested → failed, no runtime started) when the prompt cannot be assembled', async () => {
    const started: string[] = [];
    const adapter: RuntimeAdapter = {
      startAgent: async (params) => {
        started.push(params.sessionID);
        throw new Error('unreachable');
      },
      cancelAgent: () => {},
    };
    const { events, finished, done } = run(adapter, implementorParams, 0, async () => {
      throw new Error('Cannot fetch the body of work item #4: HTTP 502');
    });
    await done;
    expect(started).toEqual([]);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'implementorFailed',
        reason: 'error',
        error: 'provisioning failed: Cannot fetch the body of work item #4: HTTP 502',
        logFilePath: null,
      }),
    ]);
    expect(finished).toEqual(['s1']);
  });

  it('starts no session for a run cancelled while its prompt was assembled', async () => {
    let assembled!: () => void;
    const { adapter } = handAdapter();
    const started: string[] = [];
    const counting: RuntimeAdapter = {
      ...adapter,
      startAgent: (params) => {
        started.push(params.sessionID);
        return adapter.startAgent(params);
      },
    };
    const { events, registry, done } = run(counting, implementorParams, 0, async (request) => {
      await new Promise<void>((resolve) => (assembled = resolve));
      return promptFor(request);
    });
    await tick();
    expect(registry.cancel('s1', 'cancelled')).toBe(true);
    assembled();
    await done;
    expect(started).toEqual([]);
    expect(events).toEqual([expect.objectContaining({ type: 'implementorFailed', reason: 'cancelled' })]);
  });

  it('keeps the typed failure reason the adapter rejects with', async () => {
    const { adapter, sessions } = handAdapter();
    const { events, done } = run(adapter);
    await tick();
    sessions.get('s1')!.reject(new AgentRunFailure('timeout', 'exceeded maxAgentDuration'));
    await done;
    expect(events[1]).toEqual(
      expect.objectContaining({
        type: 'implementorFailed',
        reason: 'timeout',
        error: 'exceeded maxAgentDuration',
      }),
    );
  });

  it('refuses a result for another role (adapter output is untrusted)', async () => {
    const { adapter, sessions } = handAdapter();
    const { events, done } = run(adapter);
    await tick();
    sessions.get('s1')!.resolve({ role: 'planner', create: [], close: [], update: [] });
    await done;
    expect(events[1]).toEqual(
      expect.objectContaining({
        type: 'implementorFailed',
        reason: 'error',
        error: 'runtime returned a planner result for a implementor run',
      }),
    );
  });

  it('delivers a cancel requested during provisioning as soon as the session exists', async () => {
    let provisioned!: () => void;
    const { adapter, cancelled } = handAdapter({
      provisioning: new Promise((resolve) => (provisioned = resolve)),
    });
    const { events, registry, done } = run(adapter);
    await tick();
    expect(registry.cancel('s1', 'cancelled')).toBe(true);
    expect(cancelled).toEqual([]);
    provisioned();
    await done;
    expect(cancelled).toEqual(['s1']);
    expect(events.map((e) => e.type)).toEqual(['implementorStarted', 'implementorFailed']);
    expect(events[1]).toEqual(expect.objectContaining({ reason: 'cancelled' }));
  });

  it('cancels a run with no output or activity for the stall timeout and reports it as timed out', async () => {
    const { adapter, sessions, cancelled } = handAdapter();
    const { events, clock, done } = run(adapter, implementorParams, 10_000);
    await tick();
    clock.advance(9_000);
    sessions.get('s1')!.push('still here');
    await tick();
    clock.advance(9_000);
    sessions.get('s1')!.activity();
    clock.advance(9_000);
    expect(cancelled).toEqual([]);
    clock.advance(1_000);
    expect(cancelled).toEqual(['s1']);
    await done;
    expect(events[1]).toEqual(
      expect.objectContaining({
        type: 'implementorFailed',
        reason: 'timeout',
        error: expect.stringContaining('no output for 10s'),
      }),
    );
  });
});

describe("startAgentAsync: a planner's questions", () => {
  const plannerParams: AgentRunRequest = {
    role: 'planner',
    sessionID: 'p1',
    specPaths: ['a.md'],
    specSHAs: { 'a.md': 'sha-a' },
  };
  const session = { runtime: 'scripted', agentSessionID: 'p1', worktree: null, stateDir: '/state/p1' };
  const questions = { kind: 'questions', askedBy: 'planner', questions: ['Expire entries?'], session };

  function runPlanner(openPlannerQuestions: () => Promise<{ workItemID: string; events: EngineEvent[] }>) {
    const { adapter, sessions } = handAdapter();
    const discarded: unknown[] = [];
    const events: EngineEvent[] = [];
    const done = startAgentAsync(plannerParams, {
      adapter: {
        ...adapter,
        discardSession: async (kept) => {
          discarded.push(kept);
        },
      },
      assembleContext: promptFor,
      registry: createRunRegistry(),
      emit: (event) => events.push(event),
      clock: createManualClock(),
      logger: silentLogger,
      stallTimeoutMs: 0,
      onFinished: () => {},
      openPlannerQuestions,
    });
    return { sessions, discarded, events, done };
  }

  it('wait on the item opened for them: its events first, then agentAskedQuestions naming it', async () => {
    const created: EngineEvent = {
      type: 'workItemChanged',
      workItemID: '9',
      workItem: null,
      oldStatus: null,
      newStatus: null,
    };
    const { sessions, discarded, events, done } = runPlanner(async () => ({
      workItemID: '9',
      events: [created],
    }));
    await tick();
    // Questions are not an AgentResult; the hand adapter resolves whatever its runtime would.
    sessions.get('p1')!.resolve(questions as unknown as AgentResult);
    await done;
    expect(events.map((event) => event.type)).toEqual([
      'plannerStarted',
      'workItemChanged',
      'agentAskedQuestions',
    ]);
    expect(events[2]).toMatchObject({
      role: 'planner',
      workItemID: '9',
      questions: ['Expire entries?'],
      session,
    });
    expect(discarded).toEqual([]);
  });

  it('fail the run, naming them, and discard the session when no item can be opened', async () => {
    const { sessions, discarded, events, done } = runPlanner(async () => {
      throw new Error('tracker down');
    });
    await tick();
    sessions.get('p1')!.resolve(questions as unknown as AgentResult);
    await done;
    expect(events.at(-1)).toMatchObject({
      type: 'plannerFailed',
      reason: 'error',
      error: expect.stringMatching(/tracker down.*Expire entries\?/),
    });
    expect(discarded).toEqual([session]);
  });
});
