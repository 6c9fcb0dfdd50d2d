import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { watchClosedOutput } from './watch-closed-output.ts';

function errorWithCode(code: string): Error {
  return Object.assign(new Error(code), { code });
}

describe('watchClosedOutput', () => {
  it('swallows EPIPE and the destroyed-stream errors after it, calling onClosed once', () => {
    const stream = new EventEmitter();
    let calls = 0;
    const watch = watchClosedOutput(stream, () => {
      calls += 1;
    });
    expect(watch.closed()).toBe(false);
    stream.emit('error', errorWithCode('EPIPE'));
    stream.emit('error', errorWithCode('ERR_STREAM_DESTROYED'));
    stream.emit('error', errorWithCode('EPIPE'));
    expect(watch.closed()).toBe(true);
    expect(calls).toBe(1);
  });

  it('throws any other write error again (a full disk is not a reader going away)', () => {
    const stream = new EventEmitter();
    watchClosedOutput(stream);
    expect(() => stream.emit('error', errorWithCode('ENOSPC'))).toThrow('ENOSPC');
    expect(() => stream.emit('error', errorWithCode('ERR_STREAM_DESTROYED'))).toThrow('ERR_STREAM_DESTROYED');
  });

  it('stops listening once disposed', () => {
    const stream = new EventEmitter();
    watchClosedOutput(stream).dispose();
    expect(stream.listenerCount('error')).toBe(0);
  });
});
