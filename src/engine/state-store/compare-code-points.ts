/** Locale-independent string order, so sorted output is identical on every machine. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
