import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import type { AgentAskReply, AgentResult, EngineEvent } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import type { ConversationBrokerLink } from '../runtime-contract/index.ts';
import type { AgentRunRequest, RuntimeAdapter } from '../runtime-contract/runtime-contract.ts';
import { createConversationBroker } from './create-conversation-broker.ts';
import { createRunRegistry } from './run-registry.ts';
import { startAgentAsync } from './start-agent-async.ts';

const DONE: AgentResult = { role: 'implementor', outcome: 'completed', summary: 'done', patch: 'diff' };

/** A run that asks `to` once connected and ends when `finish` is called; what it got is in `replies`. */
function askingAdapter(to: string, replies: AgentAskReply[]) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const adapter: RuntimeAdapter = {
    async startAgent() {
      let link: ConversationBrokerLink | null = null;
      return {
        logFilePath: null,
        output: { async *[Symbol.asyncIterator]() {} },
        result: ended.then(() => DONE),
        conversations: {
          connect(broker) {
            link = broker;
            void link
              .ask({ to, question: 'Still there?', timeoutSeconds: 600 })
              .then((reply) => replies.push(reply));
          },
          deliverQuestion() {},
          withdrawQuestion() {},
        },
      };
    },
    cancelAgent() {},
  };
  return { adapter, finish };
}

const request = (sessionID: string, workItemID: string): AgentRunRequest => ({
  role: 'implementor',
  sessionID,
  workItemID,
  branchName: `flotilla/${workItemID}`,
});

describe('startAgentAsync: conversations', () => {
  it("joins each run to the broker while it runs: a run's end answers what waits on it, before its end event", async () => {
    const events: EngineEvent[] = [];
    const clock = createManualClock();
    const conversations = createConversationBroker({
      emit: (event) => events.push(event),
      clock,
      logger: silentLogger,
    });
    const deps = {
      assembleContext: async (params: AgentRunRequest) => ({ ...params, prompt: 'p' }),
      registry: createRunRegistry(),
      emit: (event: EngineEvent) => events.push(event),
      clock,
      logger: silentLogger,
      // Long enough to fire during the test if waiting did not pause it.
      stallTimeoutMs: 1_000,
      onFinished: () => {},
      conversations,
    };
    const toA: AgentAskReply[] = [];
    const b = askingAdapter('1', toA);
    const a = askingAdapter('nobody', []);
    const runA = startAgentAsync(request('sa', '1'), { ...deps, adapter: a.adapter });
    await new Promise((resolve) => setImmediate(resolve));
    const runB = startAgentAsync(request('sb', '2'), { ...deps, adapter: b.adapter });
    await new Promise((resolve) => setImmediate(resolve));
    expect(conversations.openConversations()).toMatchObject([
      { from: { sessionID: 'sb' }, to: { sessionID: 'sa' } },
    ]);
    // B waits for an answer: no stall while it does (A, which does not wait, is stalled and cancelled).
    clock.advance(1_500);
    expect(deps.registry.cancelReasonOf('sa')).toBe('timeout');
    expect(deps.registry.cancelReasonOf('sb')).toBeNull();
    a.finish();
    await runA;
    expect(toA).toEqual([expect.objectContaining({ status: 'stopped' })]);
    b.finish();
    await runB;
    const ends = events.filter((event) => event.type === 'implementorCompleted');
    expect(ends.map((event) => 'sessionID' in event && event.sessionID)).toEqual(['sa', 'sb']);
    expect(events.findIndex((event) => event.type === 'conversationAnswered')).toBeLessThan(
      events.indexOf(ends[0] as EngineEvent),
    );
    expect(conversations.openConversations()).toEqual([]);
  });
});
