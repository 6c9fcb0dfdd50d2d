import { describe, expect, it } from 'vitest';
import { shortenTranscript } from './shorten-transcript.ts';

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `  line ${index + 1}`);

describe('shortenTranscript', () => {
  it('cuts tool results and tool calls to their first lines, saying how many were left out', () => {
    const transcript = [
      '[10:00:04] ASSISTANT [tool_use] Write',
      '  file_path: /repo/src/a.ts',
      '  content:',
      ...numbered(20),
      '[10:00:05] USER [tool_result] ok',
      ...numbered(32),
      '[10:00:06] ASSISTANT',
      ...numbered(30),
      '',
      '=== Session End ===',
    ].join('\n');
    const short = shortenTranscript(transcript, { hint: '; --full shows all' }).split('\n');
    expect(short).toEqual([
      '[10:00:04] ASSISTANT [tool_use] Write',
      '  file_path: /repo/src/a.ts',
      '  content:',
      ...numbered(10),
      '  … (+10 more lines; --full shows all)',
      '[10:00:05] USER [tool_result] ok',
      ...numbered(8),
      '  … (+24 more lines; --full shows all)',
      // Assistant prose and everything else is kept whole.
      '[10:00:06] ASSISTANT',
      ...numbered(30),
      '',
      '=== Session End ===',
    ]);
  });

  it('leaves short entries and a transcript without tool calls unchanged', () => {
    const transcript = [
      '[10:00:04] ASSISTANT [tool_use] Bash',
      '  command: npm test',
      '[10:00:05] USER [tool_result] ok',
      ...numbered(8),
      '[10:00:06] RESULT success',
      '  Duration: 1.0s',
      '',
    ].join('\n');
    expect(shortenTranscript(transcript)).toBe(transcript);
  });
});
