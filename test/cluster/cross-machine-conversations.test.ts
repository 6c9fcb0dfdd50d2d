/**
 * Conversations between agents across machines (issue #28 §3, issue #33), below the processes: the
 * engine's real conversation broker on the "controller" joins two remote runs through their remote ports
 * (src/cluster/follow-remote-conversations.ts); each run's own conversations (the run shell's,
 * src/runtimes/shared/create-agent-conversations.ts) sit on a "worker" behind its bridge
 * (src/cluster/bridge-run-conversations.ts); every message crosses a real PostgreSQL table, each side on its
 * own pool. The one-machine bounds hold: answered, not running, a two-way ask refused, timeout, a stopped run;
 * and a worker that cannot reach the channel, or hears nothing back, answers its agent itself.
 * test/cli/cluster-conversations.test.ts runs it with processes and the real claude.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bridgeRunConversations,
  type RunConversationsBridge,
} from '../../src/cluster/bridge-run-conversations.ts';
import { createRunMessages, type RunMessages } from '../../src/cluster/create-run-messages.ts';
import { followRemoteConversations } from '../../src/cluster/follow-remote-conversations.ts';
import type { EngineEvent } from '../../src/domain/index.ts';
import { createConversationBroker } from '../../src/engine/command-executor/create-conversation-broker.ts';
import { systemClock } from '../../src/engine/engine-config.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import {
  type AgentConversations,
  createAgentConversations,
} from '../../src/runtimes/shared/create-agent-conversations.ts';
import { startPostgres, type TestPostgres } from '../support/start-postgres.ts';

let postgres: TestPostgres;
let controllerPool: pg.Pool;
let workerPool: pg.Pool;
let controllerMessages: RunMessages;
let workerMessages: RunMessages;
beforeAll(async () => {
  postgres = await startPostgres();
  controllerPool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  workerPool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  controllerMessages = createRunMessages(controllerPool);
  workerMessages = createRunMessages(workerPool);
}, 60_000);
afterAll(async () => {
  await controllerPool?.end();
  await workerPool?.end();
  postgres?.stop();
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const POLL_MS = 50;

/** A remote run as both machines see it: the controller's port joined to the broker, the worker's bridge. */
interface RemoteRun {
  sessionID: string;
  agent: AgentConversations;
  bridge: RunConversationsBridge;
  /** The run's reply landed: the controller stops following it. */
  end(): void;
}

function setUp() {
  const events: EngineEvent[] = [];
  const broker = createConversationBroker({
    emit: (event) => events.push(event),
    clock: systemClock,
    logger: silentLogger,
  });
  let next = 0;
  const run = (workItemID: string): RemoteRun => {
    next += 1;
    const sessionID = `s-${Date.now()}-${next}`;
    let end = () => {};
    const done = new Promise<void>((resolve) => {
      end = resolve;
    });
    const followed = followRemoteConversations(sessionID, controllerMessages, {
      pollMs: POLL_MS,
      done,
      logger: silentLogger,
    });
    broker.join({ sessionID, role: 'implementor', workItemID }, followed.port);
    const agent = createAgentConversations();
    const bridge = bridgeRunConversations(sessionID, agent.port, workerMessages, {
      pollMs: POLL_MS,
      logger: silentLogger,
    });
    cleanups.push(() => {
      bridge.stop();
      end();
    });
    return { sessionID, agent, bridge, end };
  };
  return { broker, events, run };
}

/** Resolves with the first question waiting for `agent` (delivered through PostgreSQL). */
function nextQuestion(agent: AgentConversations): Promise<string> {
  return new Promise((resolve) => {
    const first = agent.pending()[0];
    if (first !== undefined) return resolve(first.conversationID);
    const stop = agent.onChange((added) => {
      if (added === null) return;
      stop();
      resolve(added.conversationID);
    });
  });
}

describe('ask_agent between runs on different machines (PostgreSQL channel)', () => {
  it('A asks B: the question reaches B’s worker, B’s answer reaches A; the broker stores it answered', async () => {
    const { events, run } = setUp();
    const a = run('1');
    const b = run('2');
    const reply = a.agent.ask({ to: '2', question: 'Which port?', timeoutSeconds: 60 });
    const conversationID = await nextQuestion(b.agent);
    expect(b.agent.pending()).toEqual([
      { conversationID, from: 'implementor of #1', question: 'Which port?' },
    ]);
    expect(b.agent.answer({ conversationId: conversationID, answer: 'Port 8080.' })).toEqual({
      ok: true,
      text: `ok: answer sent (conversation ${conversationID})`,
    });
    expect(await reply).toBe(`Answer (conversation ${conversationID}): Port 8080.`);
    expect(b.agent.pending()).toEqual([]);
    // Answering twice is refused on B's worker: the question no longer waits there.
    expect(b.agent.answer({ conversationId: conversationID, answer: 'Again.' }).ok).toBe(false);
    expect(events.map((event) => event.type)).toEqual(['conversationCreated', 'conversationAnswered']);
    expect(events[1]).toMatchObject({ status: 'answered', answer: 'Port 8080.' });
  });

  it('asking a run that is not running answers at once; asking back while asked is refused', async () => {
    const { run } = setUp();
    const a = run('1');
    const b = run('2');
    expect(await a.agent.ask({ to: '9', question: 'Anyone?', timeoutSeconds: 60 })).toMatch(
      /^No answer \(not-running, conversation c-[0-9a-f]+\): no agent of work item #9 is running now/,
    );
    const first = a.agent.ask({ to: '2', question: 'Which port?', timeoutSeconds: 60 });
    const conversationID = await nextQuestion(b.agent);
    expect(await b.agent.ask({ to: '1', question: 'And yours?', timeoutSeconds: 60 })).toMatch(
      /No answer \(refused, .*is itself waiting for your answer/,
    );
    b.agent.answer({ conversationId: conversationID, answer: 'Port 8080.' });
    expect(await first).toContain('Port 8080.');
  });

  it('a timeout withdraws the question from B’s worker; a run that stops ends the asks waiting on it', async () => {
    const { broker, run } = setUp();
    const a = run('1');
    const b = run('2');
    const timedOut = a.agent.ask({ to: '2', question: 'Quick?', timeoutSeconds: 1 });
    await nextQuestion(b.agent);
    expect(await timedOut).toMatch(/No answer \(timeout, .*no answer within 1 s/);
    await new Promise<void>((resolve) => {
      if (b.agent.pending().length === 0) return resolve();
      b.agent.onChange(() => {
        if (b.agent.pending().length === 0) resolve();
      });
    });
    const stopped = a.agent.ask({ to: '2', question: 'Still there?', timeoutSeconds: 60 });
    await nextQuestion(b.agent);
    broker.leave(b.sessionID);
    expect(await stopped).toMatch(/No answer \(stopped, .*the agent stopped before it answered/);
  });

  it('the run’s messages are forgotten once its reply landed', async () => {
    const { run } = setUp();
    const a = run('1');
    run('2');
    await controllerMessages.send(a.sessionID, 'worker', { kind: 'withdraw', conversationID: 'c-gone' });
    a.bridge.stop();
    a.end();
    await controllerMessages.forget(a.sessionID);
    const left = await controllerPool.query('SELECT 1 FROM public.flotilla_run_messages WHERE run_id = $1', [
      a.sessionID,
    ]);
    expect(left.rowCount).toBe(0);
  });

  it('a row that is not a message is refused naming the row and the field; the rest are taken', async () => {
    await workerMessages.send('r-bad', 'controller', {
      kind: 'answer',
      conversationID: 'c-1',
      answer: 'yes',
    });
    await controllerPool.query(
      `INSERT INTO public.flotilla_run_messages (run_id, recipient, body) VALUES ('r-bad', 'controller', $1)`,
      [JSON.stringify({ kind: 'ask', callID: 'x', request: { to: '2', question: '', timeoutSeconds: 5 } })],
    );
    const taken = await controllerMessages.take('r-bad', 'controller');
    expect(taken.messages).toEqual([{ kind: 'answer', conversationID: 'c-1', answer: 'yes' }]);
    expect(taken.refused).toHaveLength(1);
    expect(taken.refused[0]?.problem).toMatch(
      /^flotilla_run_messages row \d+ \(to the controller\): body: request\.question: /,
    );
    expect((await controllerMessages.take('r-bad', 'controller')).messages).toEqual([]);
  });
});

describe('a worker that cannot reach the controller fails closed', () => {
  it('an ask that cannot be sent is answered at once with why', async () => {
    // A pool to a port nobody listens on: every send fails.
    const unreachable = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 });
    unreachable.on('error', () => undefined);
    const agent = createAgentConversations();
    const bridge = bridgeRunConversations('r-unreachable', agent.port, createRunMessages(unreachable), {
      pollMs: POLL_MS,
      logger: silentLogger,
    });
    try {
      expect(await agent.ask({ to: '2', question: 'Which port?', timeoutSeconds: 600 })).toMatch(
        /^No answer \(stopped, conversation unsent-[0-9a-f]+\): the question could not be sent to the controller \(.+\); nobody was asked/,
      );
    } finally {
      bridge.stop();
      await unreachable.end();
    }
  });

  it('an ask the controller never replies to ends after its timeout and the grace', async () => {
    // Nobody follows this run on the controller's side: the ask is sent and never answered.
    const agent = createAgentConversations();
    const bridge = bridgeRunConversations('r-no-controller', agent.port, workerMessages, {
      pollMs: POLL_MS,
      graceMs: 100,
      logger: silentLogger,
    });
    try {
      expect(await agent.ask({ to: '2', question: 'Which port?', timeoutSeconds: 1 })).toMatch(
        /^No answer \(timeout, conversation unanswered-[0-9a-f]+\): no word from the controller within 2 s/,
      );
      // And a run that ends ends its asks still waiting.
      const waiting = agent.ask({ to: '2', question: 'Later?', timeoutSeconds: 600 });
      // Once the ask is on its way (its row is in the table), the run ends.
      const sent = async () =>
        (
          await controllerPool.query(
            "SELECT 1 FROM public.flotilla_run_messages WHERE run_id = 'r-no-controller' AND body->>'kind' = 'ask'",
          )
        ).rowCount;
      while ((await sent()) === 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      bridge.stop();
      expect(await waiting).toMatch(/No answer \(stopped, .*this run ended before the answer came/);
    } finally {
      bridge.stop();
      await workerMessages.forget('r-no-controller');
    }
  });
});
