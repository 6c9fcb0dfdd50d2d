import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../domain/index.ts';
import { createRecordingLogger } from '../../logging/logger.ts';
import { createEventLoop } from './create-event-loop.ts';

function specEvent(filePath: string): EngineEvent {
  return {
    type: 'specChanged',
    filePath,
    blobSHA: 'sha',
    frontmatterStatus: 'approved',
    changeType: 'added',
    commitSHA: 'head',
  };
}

const pathOf = (event: EngineEvent) => (event.type === 'specChanged' ? event.filePath : event.type);

describe('createEventLoop', () => {
  it('processes events one at a time in arrival order, including events pushed while processing', async () => {
    const seen: string[] = [];
    let concurrent = 0;
    let maxConcurrent = 0;
    const loop = createEventLoop({
      poll: async () => {},
      logger: createRecordingLogger(),
      process: async (event) => {
        concurrent += 1;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(pathOf(event));
        if (pathOf(event) === 'a') loop.push(specEvent('c'));
        concurrent -= 1;
      },
    });
    loop.start();
    loop.push(specEvent('a'));
    loop.push(specEvent('b'));
    await loop.whenIdle();
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(maxConcurrent).toBe(1);
  });

  it('survives a processor that throws and logs it', async () => {
    const logger = createRecordingLogger();
    const seen: string[] = [];
    const loop = createEventLoop({
      poll: async () => {},
      logger,
      process: async (event) => {
        if (pathOf(event) === 'bad') throw new Error('boom');
        seen.push(pathOf(event));
      },
    });
    loop.start();
    loop.push(specEvent('bad'));
    loop.push(specEvent('good'));
    await loop.whenIdle();
    expect(seen).toEqual(['good']);
    expect(logger.records.some((r) => r.level === 'error' && r.fields.error === 'boom')).toBe(true);
  });

  it('drains what is queued (and what that produces) before stopping, then ignores new events', async () => {
    const seen: string[] = [];
    const loop = createEventLoop({
      poll: async () => {},
      logger: createRecordingLogger(),
      process: async (event) => {
        seen.push(pathOf(event));
        if (pathOf(event) === 'x') loop.push(specEvent('y'));
      },
    });
    loop.start();
    loop.push(specEvent('x'));
    await loop.drainAndStop();
    loop.push(specEvent('late'));
    expect(seen).toEqual(['x', 'y']);
    expect(loop.size()).toBe(0);
  });

  it('runs a requested poll only once the queue is empty, merging requests made before it starts', async () => {
    const order: string[] = [];
    let polls = 0;
    const loop = createEventLoop({
      logger: createRecordingLogger(),
      poll: async () => {
        polls += 1;
        order.push('poll');
      },
      process: async (event) => {
        order.push(pathOf(event));
      },
    });
    loop.push(specEvent('a'));
    loop.push(specEvent('b'));
    const first = loop.requestPoll();
    const second = loop.requestPoll();
    loop.start();
    await Promise.all([first, second]);
    expect(order).toEqual(['a', 'b', 'poll']);
    expect(polls).toBe(1);
    await loop.requestPoll();
    expect(polls).toBe(2);
    await loop.drainAndStop();
    await loop.requestPoll();
    expect(polls).toBe(2);
  });
});
