import { afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../logging/logger.ts';
import { captureStrayOutput } from './capture-stray-output.ts';

describe('captureStrayOutput', () => {
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  it('sends console calls, stderr writes and process warnings to the log, and puts them back after', async () => {
    const logger = createRecordingLogger();
    const originalError = console.error;
    const originalWrite = process.stderr.write;
    const warningListenersBefore = process.listenerCount('warning');
    restore = captureStrayOutput(logger);

    console.log('hello %s', 'world');
    console.error(new Error('boom').message);
    let flushed = false;
    process.stderr.write('direct write\n', () => {
      flushed = true;
    });
    process.emitWarning('something odd', 'OddWarning');
    await new Promise((resolve) => setImmediate(resolve));

    expect(logger.records.map((record) => [record.level, record.message])).toEqual([
      ['info', 'console.log: hello world'],
      ['error', 'console.error: boom'],
      ['warn', 'stderr: direct write'],
      ['warn', 'process warning: OddWarning: something odd'],
    ]);
    expect(flushed).toBe(true);

    restore();
    restore = null;
    expect(console.error).toBe(originalError);
    expect(process.stderr.write).toBe(originalWrite);
    expect(process.listenerCount('warning')).toBe(warningListenersBefore);
  });
});
