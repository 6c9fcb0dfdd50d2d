/**
 * Agent output, transcripts, titles and logs are untrusted: an escape sequence in them could move the
 * cursor, retitle the terminal or hide text. Tabs become spaces; every other control character is shown
 * as a visible placeholder instead of being sent to the terminal.
 */
export function sanitizeTerminalText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/\t/g, '    ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '�');
}
