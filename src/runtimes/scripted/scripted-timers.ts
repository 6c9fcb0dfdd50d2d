/** The two timer functions the scripted adapter needs; inject fakes, or leave the default. */
export interface ScriptedTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The global timers, looked up at each call (not captured at import), so Vitest fake timers installed at any
 * point apply.
 */
export const globalTimers: ScriptedTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  // The handle came from globalThis.setTimeout above.
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
