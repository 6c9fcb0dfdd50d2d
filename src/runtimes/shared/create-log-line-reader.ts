import { readFile } from 'node:fs/promises';

/**
 * Reads a log file another process appends to (codex's stderr, which the SDK keeps to itself, goes to one):
 * each `readNew()` gives the lines written since the previous call, none twice. A missing file has none.
 */
export function createLogLineReader(path: string) {
  let offset = 0;
  return {
    async readNew(): Promise<string[]> {
      const text = await readFile(path).catch(() => Buffer.alloc(0));
      const fresh = text.subarray(offset).toString('utf8');
      offset = Math.max(offset, text.length);
      return fresh.split('\n').filter((line) => line !== '');
    },
  };
}
