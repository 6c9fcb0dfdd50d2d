import { describe, expect, it } from 'vitest';
import { createCallRecorder } from './create-call-recorder.ts';

describe('createCallRecorder', () => {
  it('returns a copy of the implementation’s result', async () => {
    const recorder = createCallRecorder();
    const stored = { labels: ['a'] };
    const read = recorder.wrap('getWorkItem', async () => stored);
    const result = await read();
    result.labels.push('mutated');
    expect(stored.labels).toEqual(['a']);
  });

  it('hands the implementation a copy of the arguments', async () => {
    const recorder = createCallRecorder();
    const kept: { labels: string[] }[] = [];
    const write = recorder.wrap('createWorkItem', async (created: { labels: string[] }) => {
      kept.push(created);
    });
    const input = { labels: ['a'] };
    await write(input);
    input.labels.push('mutated');
    expect(kept[0]?.labels).toEqual(['a']);
  });

  it('passes arguments through and logs them', async () => {
    const recorder = createCallRecorder();
    const add = recorder.wrap('addComment', async (id: string, body: string) => `${id}:${body}`);
    expect(await add('1', 'hi')).toBe('1:hi');
    expect(recorder.calls()).toEqual([{ method: 'addComment', args: ['1', 'hi'], error: null }]);
  });

  it('logs a synchronous throw of the implementation as a rejected call', async () => {
    const recorder = createCallRecorder();
    const broken = recorder.wrap('listSpecs', () => {
      throw new Error('sync failure');
    });
    await expect(broken()).rejects.toThrow('sync failure');
    expect(recorder.calls('listSpecs')[0]?.error).toBe('sync failure');
  });

  it('does not run the implementation when a failure is injected', async () => {
    const recorder = createCallRecorder();
    let ran = 0;
    const write = recorder.wrap('addComment', async () => {
      ran += 1;
    });
    recorder.failNext('addComment');
    await expect(write()).rejects.toThrow('in-memory provider: injected failure in addComment');
    expect(ran).toBe(0);
    await write();
    expect(ran).toBe(1);
  });
});
