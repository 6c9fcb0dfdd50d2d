/** Polls `predicate` until it holds; throws (with `what`) if it does not within `timeoutMs`. */
export async function waitFor(predicate: () => boolean, what = 'condition', timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets pending promise callbacks and timers of `ms` run. */
export function pause(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
