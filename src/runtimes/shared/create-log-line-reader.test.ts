import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogLineReader } from './create-log-line-reader.ts';

describe('createLogLineReader', () => {
  it('gives each appended line once, and nothing for a missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-log-lines-'));
    try {
      const reader = createLogLineReader(join(dir, 'stderr.log'));
      expect(await reader.readNew()).toEqual([]);
      await appendFile(join(dir, 'stderr.log'), 'one\ntwo\n');
      expect(await reader.readNew()).toEqual(['one', 'two']);
      await appendFile(join(dir, 'stderr.log'), 'bwrap: three\n');
      expect(await reader.readNew()).toEqual(['bwrap: three']);
      expect(await reader.readNew()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
