/** Commander argument parser for repeatable options (`--label a --label b` → ['a', 'b']). */
export function collectOption(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}
