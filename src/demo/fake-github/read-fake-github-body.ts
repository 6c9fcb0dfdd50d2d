/** A request body's string field, or null. */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Label names: GitHub accepts names or `{ name }` objects. */
export function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry === 'string') return [entry];
    if (typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string') {
      return [entry.name];
    }
    return [];
  });
}
