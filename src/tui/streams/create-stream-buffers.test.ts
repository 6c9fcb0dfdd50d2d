import { afterEach, describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { createFakeDashboardEngine } from '../../../test/support/tui/create-fake-dashboard-engine.ts';
import { pause, waitFor } from '../../../test/support/tui/wait-for.ts';
import {
  createStreamBuffers,
  type StreamBufferOptions,
  type StreamBuffers,
} from './create-stream-buffers.ts';

const running = (sessionID: string, requestedAt = 1) =>
  buildImplementorRun({ sessionID, workItemID: sessionID, requestedAt });

let openBuffers: StreamBuffers | null = null;
afterEach(() => {
  openBuffers?.close();
  openBuffers = null;
});

function setup(sessions: string[], options: StreamBufferOptions = {}) {
  const engine = createFakeDashboardEngine(
    buildTestState({
      workItems: sessions.map((id) => buildWorkItem({ id, status: 'in-progress' })),
      agentRuns: sessions.map((id) => running(id)),
    }),
  );
  openBuffers = createStreamBuffers(engine, { notifyIntervalMs: 5, ...options });
  return { engine, buffers: openBuffers };
}

const linesOf = (of: StreamBuffers, id: string) => of.get(id)?.lines ?? [];

describe('createStreamBuffers', () => {
  it('follows every active run and splits each chunk into lines (one trailing newline dropped)', async () => {
    const { engine, buffers } = setup(['a', 'b']);
    engine.channel('a').push('one\ntwo\n');
    engine.channel('a').push('three');
    engine.channel('b').push('b1\n\nb3');
    await waitFor(() => linesOf(buffers, 'a').length === 3 && linesOf(buffers, 'b').length === 3);
    expect(linesOf(buffers, 'a')).toEqual(['one', 'two', 'three']);
    expect(linesOf(buffers, 'b')).toEqual(['b1', '', 'b3']);
    expect(buffers.get('a')).toMatchObject({ sessionID: 'a', dropped: 0, ended: false });
  });

  it('does not follow finished runs, and knows nothing of unknown sessions', () => {
    const engine = createFakeDashboardEngine(
      buildTestState({ agentRuns: [buildImplementorRun({ sessionID: 'done', status: 'completed' })] }),
    );
    openBuffers = createStreamBuffers(engine);
    expect(openBuffers.get('done')).toBeNull();
    expect(openBuffers.get('nope')).toBeNull();
  });

  it('starts following a run that becomes active after it was created', async () => {
    const { engine, buffers } = setup([]);
    expect(buffers.get('late')).toBeNull();
    engine.setState((state) => ({ ...state, agentRuns: { late: running('late') } }));
    engine.channel('late').push('hello');
    await waitFor(() => linesOf(buffers, 'late').length === 1);
    expect(linesOf(buffers, 'late')).toEqual(['hello']);
  });

  it('keeps the newest maxLines lines of a long stream and counts what it dropped', async () => {
    const { engine, buffers } = setup(['a'], { maxLines: 10 });
    for (let index = 0; index < 100; index += 1) engine.channel('a').push(`line ${index}`);
    engine.channel('a').end();
    await waitFor(() => buffers.get('a')?.ended === true);
    const buffer = buffers.get('a');
    // Trimming is batched: at most 10% over maxLines, and every line is either kept or counted as dropped.
    expect(buffer?.lines.length).toBeGreaterThanOrEqual(10);
    expect(buffer?.lines.length).toBeLessThanOrEqual(11);
    expect((buffer?.lines.length ?? 0) + (buffer?.dropped ?? 0)).toBe(100);
    expect(buffer?.lines.at(-1)).toBe('line 99');
    expect(buffer?.lines[0]).toBe(`line ${buffer?.dropped}`);
  });

  it('marks a buffer ended when its stream finishes, and one that throws ends the same way', async () => {
    const engine = createFakeDashboardEngine(
      buildTestState({ agentRuns: [running('ok'), running('broken')] }),
    );
    const failing: AsyncIterable<string> = {
      async *[Symbol.asyncIterator]() {
        yield 'before the break';
        throw new Error('stream broke');
      },
    };
    const source = {
      ...engine,
      getAgentStream: (id: string) => (id === 'broken' ? failing : engine.getAgentStream(id)),
    };
    openBuffers = createStreamBuffers(source, { notifyIntervalMs: 5 });
    engine.channel('ok').push('fine');
    engine.channel('ok').end();
    const current = openBuffers;
    await waitFor(() => current.get('ok')?.ended === true && current.get('broken')?.ended === true);
    expect(linesOf(current, 'ok')).toEqual(['fine']);
    expect(linesOf(current, 'broken')).toEqual(['before the break']);
  });

  it('keeps at most keepFinished finished sessions, dropping the oldest first', async () => {
    const ids = ['s1', 's2', 's3', 's4'];
    const { engine, buffers } = setup(ids, { keepFinished: 2 });
    for (const id of ids) {
      engine.channel(id).push(`out ${id}`);
      engine.channel(id).end();
      await waitFor(() => buffers.get(id)?.ended === true, `${id} ended`);
    }
    expect(buffers.get('s1')).toBeNull();
    expect(buffers.get('s2')).toBeNull();
    expect(linesOf(buffers, 's3')).toEqual(['out s3']);
    expect(linesOf(buffers, 's4')).toEqual(['out s4']);
  });

  it('tells listeners about changes, coalescing a burst into fewer notifications', async () => {
    const { engine, buffers } = setup(['a'], { notifyIntervalMs: 20 });
    let notified = 0;
    const unsubscribe = buffers.subscribe(() => {
      notified += 1;
    });
    const before = buffers.version();
    for (let index = 0; index < 50; index += 1) engine.channel('a').push(`line ${index}`);
    await waitFor(() => notified > 0 && linesOf(buffers, 'a').length === 50);
    expect(buffers.version()).toBeGreaterThanOrEqual(before + 50);
    expect(notified).toBeLessThan(50);
    // Unsubscribed listeners hear nothing more.
    unsubscribe();
    const heard = notified;
    engine.channel('a').push('more');
    await waitFor(() => linesOf(buffers, 'a').length === 51);
    await pause(60);
    expect(notified).toBe(heard);
  });

  it('stops reading and notifying after close', async () => {
    const { engine, buffers } = setup(['a']);
    let notified = 0;
    buffers.subscribe(() => {
      notified += 1;
    });
    engine.channel('a').push('first');
    await waitFor(() => linesOf(buffers, 'a').length === 1 && notified > 0);
    buffers.close();
    const heard = notified;
    engine.channel('a').push('after close');
    engine.setState((state) => ({ ...state, agentRuns: { ...state.agentRuns, b: running('b') } }));
    await pause(60);
    expect(linesOf(buffers, 'a')).toEqual(['first']);
    expect(buffers.get('b')).toBeNull();
    expect(notified).toBe(heard);
  });
});
