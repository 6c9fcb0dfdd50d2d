export interface OutputTailLimits {
  /** Default 200. */
  maxLines?: number;
  /** Default 16 KiB (UTF-8 bytes). */
  maxBytes?: number;
}

export interface OutputTail {
  text: string;
  /** Whether anything was left out (then `text` starts with a line saying so). */
  truncated: boolean;
}

export const DEFAULT_TAIL_LINES = 200;
export const DEFAULT_TAIL_BYTES = 16 * 1024;

/**
 * The end of a command's output, bounded by lines and bytes: errors are usually at the end, and an agent's
 * prompt or a work item comment must stay readable. When anything is cut, the first line says how much.
 */
export function buildOutputTail(output: string, limits: OutputTailLimits = {}): OutputTail {
  const maxLines = limits.maxLines ?? DEFAULT_TAIL_LINES;
  const maxBytes = limits.maxBytes ?? DEFAULT_TAIL_BYTES;
  const lines = output.replace(/\s+$/, '').split('\n');
  const totalLines = lines.length;
  let kept = lines.slice(-maxLines);
  let text = kept.join('\n');
  let cutBytes = false;
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    cutBytes = true;
    const bytes = Buffer.from(text, 'utf8');
    // Cut at a line start when one is near, else mid-line; never inside a UTF-8 sequence.
    let start = bytes.length - maxBytes;
    while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
    text = bytes.subarray(start).toString('utf8');
    const newline = text.indexOf('\n');
    if (newline !== -1 && newline < text.length / 2) text = text.slice(newline + 1);
    kept = text.split('\n');
  }
  if (kept.length === totalLines && !cutBytes) return { text, truncated: false };
  const shown = cutBytes
    ? `the last ${Buffer.byteLength(text, 'utf8')} bytes`
    : `the last ${kept.length} lines`;
  return {
    text: `[output truncated: ${totalLines} lines in all, showing ${shown}]\n${text}`,
    truncated: true,
  };
}
