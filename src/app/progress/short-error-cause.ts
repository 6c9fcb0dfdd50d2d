/**
 * The part of a run's error that says what went wrong: its first line, without the runtime's "the <role>
 * session ended with an error: API Error: 400 [flotilla model-server]" wrapping, at most `max` characters.
 */
export function shortErrorCause(error: string, max = 200): string {
  const firstLine = error.split('\n')[0] ?? '';
  const cause = firstLine
    .replace(/^the \w+ session (ended with an error|failed( \([^)]*\))?): /, '')
    .replace(/^API Error: \d+ /, '')
    .replace(/^\[flotilla model-server\] /, 'scenario: ');
  return cause.length > max ? `${cause.slice(0, max - 1)}…` : cause;
}
