/**
 * The published quote masking (docs/reference-behaviour.md §8): text inside '…' or "…" becomes spaces, quote
 * marks stay, the length is preserved. Inside double quotes a backslash escapes the next character (both
 * become spaces); inside single quotes nothing escapes; outside quotes a backslash and the next character
 * are kept. An unclosed quote masks to the end.
 *
 * `blankRanges` (UTF-16 index ranges, end exclusive) are blanked first; the validator passes heredoc
 * bodies, which the published masking left visible (and whose apostrophes could open a bogus quote).
 */
export function maskQuotedText(
  command: string,
  blankRanges: ReadonlyArray<readonly [number, number]> = [],
): string {
  const out: string[] = command.split('');
  for (const [start, end] of blankRanges) {
    for (let i = Math.max(0, start); i < Math.min(end, out.length); i += 1) {
      if (out[i] !== '\n') out[i] = ' ';
    }
  }
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < out.length; i += 1) {
    const ch = out[i]!;
    if (quote === null) {
      if (ch === '\\') {
        i += 1;
      } else if (ch === '"' || ch === "'") {
        quote = ch;
      }
      continue;
    }
    if (ch === quote) {
      quote = null;
      continue;
    }
    if (quote === '"' && ch === '\\' && i + 1 < out.length) {
      out[i] = ' ';
      out[i + 1] = ' ';
      i += 1;
      continue;
    }
    out[i] = ' ';
  }
  return out.join('');
}
