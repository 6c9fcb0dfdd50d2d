import { open } from 'node:fs/promises';
import type { ChecksOutputTail } from '../../types.ts';

export const CHECKS_TAIL_MAX_LINES = 200;
export const CHECKS_TAIL_MAX_BYTES = 16 * 1024;

/**
 * The last `maxLines` lines of a checks log, at most `maxBytes` bytes (a line cut by the byte bound is
 * dropped whole). Null when the log cannot be read (removed by the user, never written).
 */
export async function readChecksOutputTail(
  logPath: string,
  limits: { maxLines?: number; maxBytes?: number } = {},
): Promise<ChecksOutputTail | null> {
  const maxLines = limits.maxLines ?? CHECKS_TAIL_MAX_LINES;
  const maxBytes = limits.maxBytes ?? CHECKS_TAIL_MAX_BYTES;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(logPath, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    let lines = buffer.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    let truncated = false;
    // The first line may be cut in the middle (or in a UTF-8 sequence): keep whole lines only.
    if (length < size) {
      lines = lines.slice(1);
      truncated = true;
    }
    if (lines.length > maxLines) {
      lines = lines.slice(-maxLines);
      truncated = true;
    }
    return { text: lines.join('\n'), truncated, logPath };
  } finally {
    await handle.close();
  }
}
