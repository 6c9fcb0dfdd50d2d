/** Embedded text ends where the next section starts; its own trailing newlines would add blank lines. */
export function withoutTrailingNewlines(text: string): string {
  return text.replace(/[\r\n]+$/, '');
}

/**
 * Wraps text in a ``` code block, using a longer fence when the text itself contains a run of backticks
 * (a patch of a markdown file would otherwise close the block early).
 */
export function codeBlock(text: string): string {
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}\n${withoutTrailingNewlines(text)}\n${fence}`;
}
