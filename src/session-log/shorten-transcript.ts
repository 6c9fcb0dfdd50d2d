/** How many detail lines of a tool call and of a tool result the short view keeps. */
const KEPT_LINES = { toolUse: 12, toolResult: 8 } as const;

const TOOL_USE_ENTRY = /^\[\d\d:\d\d:\d\d\] ASSISTANT \[tool_use\] /;
const TOOL_RESULT_ENTRY = /^\[\d\d:\d\d:\d\d\] USER \[tool_result\] /;

export interface ShortenTranscriptOptions {
  /** Appended to each `… (+N more lines` marker, e.g. `; --full shows all`. Default: nothing. */
  hint?: string;
}

/**
 * The readable view of a transcript (`flotilla logs` without `--full`, the dashboard): every entry stays,
 * but the details of a tool call or a tool result (its indented lines) are cut to their first lines with a
 * `… (+N more lines)` marker. Everything else is unchanged. Pure: the file keeps the full record.
 */
export function shortenTranscript(text: string, options: ShortenTranscriptOptions = {}): string {
  const out: string[] = [];
  let keep = Number.POSITIVE_INFINITY;
  let dropped = 0;
  const closeEntry = () => {
    if (dropped > 0) out.push(`  … (+${dropped} more line${dropped === 1 ? '' : 's'}${options.hint ?? ''})`);
    dropped = 0;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('  ') && keep !== Number.POSITIVE_INFINITY) {
      if (keep > 0) {
        keep -= 1;
        out.push(line);
      } else {
        dropped += 1;
      }
      continue;
    }
    closeEntry();
    keep = TOOL_USE_ENTRY.test(line)
      ? KEPT_LINES.toolUse
      : TOOL_RESULT_ENTRY.test(line)
        ? KEPT_LINES.toolResult
        : Number.POSITIVE_INFINITY;
    out.push(line);
  }
  closeEntry();
  return out.join('\n');
}
