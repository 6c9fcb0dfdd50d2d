import { describe, expect, it } from 'vitest';
import { createOutputBroadcast } from './create-output-broadcast.ts';

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('createOutputBroadcast', () => {
  it('gives every reader the history and then live chunks, and ends them all', async () => {
    const broadcast = createOutputBroadcast();
    broadcast.push('a');
    const first = collect(broadcast.subscribe());
    broadcast.push('b');
    const second = collect(broadcast.subscribe());
    broadcast.push('c');
    broadcast.end();
    expect(await first).toEqual(['a', 'b', 'c']);
    expect(await second).toEqual(['a', 'b', 'c']);
  });

  it('lets a reader that arrives after the end read the history and finish', async () => {
    const broadcast = createOutputBroadcast();
    broadcast.push('x');
    broadcast.end();
    expect(broadcast.ended).toBe(true);
    expect(await collect(broadcast.subscribe())).toEqual(['x']);
  });

  it('keeps only the newest chunks up to the history limit', async () => {
    const broadcast = createOutputBroadcast({ historyLimit: 2 });
    for (const chunk of ['1', '2', '3']) broadcast.push(chunk);
    broadcast.end();
    expect(await collect(broadcast.subscribe())).toEqual(['2', '3']);
  });

  it('stops delivering to a reader that broke out early', async () => {
    const broadcast = createOutputBroadcast();
    const stream = broadcast.subscribe();
    broadcast.push('first');
    for await (const chunk of stream) {
      expect(chunk).toBe('first');
      break;
    }
    broadcast.push('second');
    broadcast.end();
    expect(await collect(broadcast.subscribe())).toEqual(['first', 'second']);
  });
});
