import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLogger } from './create-file-logger.ts';

describe('createFileLogger', () => {
  it('writes JSON lines at or above its level to the file, creating the directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-log-'));
    try {
      const path = join(dir, 'nested', 'flotilla.log');
      const logger = createFileLogger({ path, level: 'info' });
      logger.debug('hidden');
      logger.info('engine started', { maxConcurrentAgents: 3 });
      logger.error('boom', { sessionID: 's1' });
      logger.close();
      const lines = (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => [line.msg, line.level])).toEqual([
        ['engine started', 30],
        ['boom', 50],
      ]);
      expect(lines[0].maxConcurrentAgents).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
