import type { ChecksOutputTail } from '../../types.ts';

const MAX_LINES = 200;
const MAX_BYTES = 16 * 1024;

/** The end of a checks report, at most `maxLines` lines and `maxBytes` bytes (earlier output is dropped). */
export function buildChecksOutputTail(
  text: string,
  logPath: string,
  bounds: { maxLines?: number; maxBytes?: number } = {},
): ChecksOutputTail {
  const maxLines = bounds.maxLines ?? MAX_LINES;
  const maxBytes = bounds.maxBytes ?? MAX_BYTES;
  let lines = text.split('\n');
  let truncated = false;
  if (lines.length > maxLines) {
    lines = lines.slice(-maxLines);
    truncated = true;
  }
  while (lines.length > 1 && Buffer.byteLength(lines.join('\n')) > maxBytes) {
    lines.shift();
    truncated = true;
  }
  let tail = lines.join('\n');
  if (Buffer.byteLength(tail) > maxBytes) {
    // One very long line: its end.
    tail = Buffer.from(tail).subarray(-maxBytes).toString('utf8');
    truncated = true;
  }
  return { text: tail, truncated, logPath };
}
