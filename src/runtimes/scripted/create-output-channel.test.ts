import { describe, expect, it } from 'vitest';
import { createOutputChannel } from './create-output-channel.ts';

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

describe('createOutputChannel', () => {
  it('yields buffered chunks, then waits for more, then ends', async () => {
    const channel = createOutputChannel();
    channel.push('a');
    const collected = collect(channel.iterable);
    channel.push('b');
    await Promise.resolve();
    channel.push('c');
    channel.end();
    expect(await collected).toEqual(['a', 'b', 'c']);
    expect(channel.ended).toBe(true);
  });

  it('lets every iterator read from the start', async () => {
    const channel = createOutputChannel();
    channel.push('x');
    channel.push('y');
    channel.end();
    expect(await collect(channel.iterable)).toEqual(['x', 'y']);
    expect(await collect(channel.iterable)).toEqual(['x', 'y']);
  });

  it('ignores pushes after end', async () => {
    const channel = createOutputChannel();
    channel.end();
    channel.push('late');
    expect(channel.chunks).toEqual([]);
    expect(await collect(channel.iterable)).toEqual([]);
  });

  it('never blocks the producer when nobody reads', () => {
    const channel = createOutputChannel();
    for (let i = 0; i < 10_000; i++) channel.push(String(i));
    channel.end();
    expect(channel.chunks).toHaveLength(10_000);
  });

  it('stops an iterator on break (return) without affecting others', async () => {
    const channel = createOutputChannel();
    channel.push('1');
    channel.push('2');
    const first: string[] = [];
    for await (const chunk of channel.iterable) {
      first.push(chunk);
      break;
    }
    channel.end();
    expect(first).toEqual(['1']);
    expect(await collect(channel.iterable)).toEqual(['1', '2']);
  });

  it('a returned iterator reports done on later next calls', async () => {
    const channel = createOutputChannel();
    channel.push('1');
    const iterator = channel.iterable[Symbol.asyncIterator]();
    await iterator.return?.();
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('wakes a waiting reader when the channel ends', async () => {
    const channel = createOutputChannel();
    const iterator = channel.iterable[Symbol.asyncIterator]();
    const pending = iterator.next();
    channel.end();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});
