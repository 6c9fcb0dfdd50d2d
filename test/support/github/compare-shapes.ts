/** `path: type` for every field of a JSON value, array items merged under `[]`; null is its own type. */
export function shapeOf(
  value: unknown,
  path = '',
  into = new Map<string, Set<string>>(),
): Map<string, Set<string>> {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (path !== '') into.set(path, (into.get(path) ?? new Set()).add(type));
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${path}[]`, into);
  else if (type === 'object') {
    for (const [key, field] of Object.entries(value as object))
      shapeOf(field, path ? `${path}.${key}` : key, into);
  }
  return into;
}

/** Fields of the fake's body that the recording lacks, or has with another (non-null) type. */
export function unknownFields(fake: unknown, recorded: unknown): string[] {
  const expected = shapeOf(recorded);
  return [...shapeOf(fake)].flatMap(([path, types]) => {
    const known = expected.get(path);
    if (known === undefined) return [`${path} (not in the recording)`];
    const mismatched = [...types].filter((type) => type !== 'null' && !known.has(type) && !known.has('null'));
    return mismatched.length > 0
      ? [`${path}: ${mismatched.join('|')} (recorded: ${[...known].join('|')})`]
      : [];
  });
}
