/**
 * The text of anything a `catch` can receive: an Error's message, anything else as `String(value)`.
 * For one-line reports where the error's class name and stack would be noise.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
