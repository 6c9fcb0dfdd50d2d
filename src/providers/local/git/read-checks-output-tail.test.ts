import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readChecksOutputTail } from './read-checks-output-tail.ts';

describe('readChecksOutputTail', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-tail-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns a short log whole', async () => {
    const path = join(dir, 'checks.log');
    await writeFile(path, 'one\ntwo\n');
    expect(await readChecksOutputTail(path)).toEqual({ text: 'one\ntwo', truncated: false, logPath: path });
  });

  it('keeps the last lines and says it truncated', async () => {
    const path = join(dir, 'checks.log');
    await writeFile(path, `${Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    const tail = await readChecksOutputTail(path);
    expect(tail?.truncated).toBe(true);
    const lines = tail?.text.split('\n') ?? [];
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe('line 101');
    expect(lines.at(-1)).toBe('line 300');
  });

  it('keeps whole lines within the byte bound', async () => {
    const path = join(dir, 'checks.log');
    await writeFile(path, `${'x'.repeat(100)}\n${'y'.repeat(30)}\nlast\n`);
    const tail = await readChecksOutputTail(path, { maxBytes: 50 });
    expect(tail).toEqual({ text: `${'y'.repeat(30)}\nlast`, truncated: true, logPath: path });
  });

  it('returns null for a log that is not there', async () => {
    expect(await readChecksOutputTail(join(dir, 'gone.log'))).toBeNull();
  });
});
