import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import type { ConversationParty, EngineEvent, IncomingAgentQuestion } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import type { ConversationBrokerLink } from '../runtime-contract/index.ts';
import { createConversationBroker } from './create-conversation-broker.ts';

const A: ConversationParty = { sessionID: 'sa', role: 'implementor', workItemID: '1' };
const B: ConversationParty = { sessionID: 'sb', role: 'implementor', workItemID: '2' };
const P: ConversationParty = { sessionID: 'sp', role: 'planner', workItemID: null };

function setUp() {
  const clock = createManualClock();
  const events: EngineEvent[] = [];
  let n = 0;
  const broker = createConversationBroker({
    emit: (event) => events.push(event),
    clock,
    logger: silentLogger,
    redact: (text) => text.replaceAll('sk-secret', '[redacted]'),
    newID: () => `c${++n}`,
  });
  const join = (party: ConversationParty) => {
    const inbox: IncomingAgentQuestion[] = [];
    const withdrawn: string[] = [];
    const waiting: boolean[] = [];
    let link!: ConversationBrokerLink;
    broker.join(
      party,
      {
        connect: (connected) => {
          link = connected;
        },
        deliverQuestion: (question) => inbox.push(question),
        withdrawQuestion: (id) => withdrawn.push(id),
      },
      { onWaiting: (on) => waiting.push(on) },
    );
    return { link, inbox, withdrawn, waiting };
  };
  return { clock, events, broker, join };
}

describe('createConversationBroker', () => {
  it('routes a question to the running agent of the item and its answer back', async () => {
    const { events, join } = setUp();
    const a = join(A);
    const b = join(B);
    const reply = a.link.ask({ to: '#2', question: 'Which port? sk-secret', timeoutSeconds: 60 });
    expect(b.inbox).toEqual([
      { conversationID: 'c1', from: 'implementor of #1', question: 'Which port? [redacted]' },
    ]);
    expect(a.waiting).toEqual([true]);
    expect(b.link.answer('c1', 'Port 8080.')).toEqual({ ok: true });
    expect(await reply).toEqual({ conversationID: 'c1', status: 'answered', text: 'Port 8080.' });
    expect(a.waiting).toEqual([true, false]);
    expect(events.map((event) => event.type)).toEqual(['conversationCreated', 'conversationAnswered']);
    expect(events[0]).toMatchObject({ conversation: { from: A, to: B, target: '2', status: 'open' } });
    // Answered once: a second answer, or an answer by someone else, is refused.
    expect(b.link.answer('c1', 'again')).toMatchObject({ ok: false });
  });

  it('says at once that nobody runs, and refuses asking oneself', async () => {
    const { join, events } = setUp();
    const a = join(A);
    expect(await a.link.ask({ to: 'planner', question: 'Scope?', timeoutSeconds: 5 })).toMatchObject({
      status: 'not-running',
    });
    expect(await a.link.ask({ to: '1', question: 'Me?', timeoutSeconds: 5 })).toMatchObject({
      status: 'refused',
      text: 'you cannot ask yourself',
    });
    expect(events.map((event) => event.type)).toEqual(['conversationCreated', 'conversationCreated']);
  });

  it('times out with a sentence the asker can act on and withdraws the question', async () => {
    const { clock, join } = setUp();
    const a = join(A);
    const b = join(P);
    const reply = a.link.ask({ to: 'planner', question: 'Scope?', timeoutSeconds: 3 });
    clock.advance(3000);
    expect(await reply).toMatchObject({ status: 'timeout', text: expect.stringContaining('within 3 s') });
    expect(b.withdrawn).toEqual(['c1']);
    expect(b.link.answer('c1', 'late')).toMatchObject({ ok: false });
  });

  it('refuses the ask that would close a cycle, so two agents asking each other never deadlock', async () => {
    const { join } = setUp();
    const a = join(A);
    const b = join(B);
    const p = join(P);
    const first = a.link.ask({ to: '2', question: 'Q1', timeoutSeconds: 60 });
    const second = b.link.ask({ to: 'planner', question: 'Q2', timeoutSeconds: 60 });
    // planner → A would close A → B → planner → A.
    expect(await p.link.ask({ to: '1', question: 'Q3', timeoutSeconds: 60 })).toMatchObject({
      status: 'refused',
    });
    expect(await b.link.ask({ to: '1', question: 'back', timeoutSeconds: 60 })).toMatchObject({
      status: 'refused',
      text: expect.stringContaining('c1 from the implementor of #1'),
    });
    p.link.answer('c2', 'A2');
    expect(await second).toMatchObject({ status: 'answered', text: 'A2' });
    b.link.answer('c1', 'A1');
    expect(await first).toMatchObject({ status: 'answered', text: 'A1' });
  });

  it("ends a stopped run's open asks and the questions waiting for it", async () => {
    const { broker, join, events } = setUp();
    const a = join(A);
    const b = join(B);
    const p = join(P);
    const toB = a.link.ask({ to: '2', question: 'Q1', timeoutSeconds: 60 });
    const fromB = b.link.ask({ to: 'planner', question: 'Q2', timeoutSeconds: 60 });
    broker.leave(B.sessionID);
    expect(await toB).toMatchObject({ status: 'stopped', text: expect.stringContaining('stopped before') });
    expect(await fromB).toMatchObject({ status: 'stopped' });
    expect(p.withdrawn).toEqual(['c2']);
    expect(broker.openConversations()).toEqual([]);
    expect(await a.link.ask({ to: '2', question: 'Q3', timeoutSeconds: 5 })).toMatchObject({
      status: 'not-running',
    });
    expect(events.filter((event) => event.type === 'conversationAnswered')).toHaveLength(2);
  });

  it('refuses invalid input naming the field', async () => {
    const { join } = setUp();
    const a = join(A);
    join(B);
    expect(await a.link.ask({ to: '2', question: '', timeoutSeconds: 5 })).toMatchObject({
      status: 'refused',
      text: expect.stringContaining('question'),
    });
    expect(await a.link.ask({ to: '2', question: 'Q', timeoutSeconds: 99999 })).toMatchObject({
      status: 'refused',
      text: expect.stringContaining('timeoutSeconds'),
    });
  });
});
