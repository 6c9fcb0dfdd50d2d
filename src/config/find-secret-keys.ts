/**
 * Key names that hold credentials. Secrets belong in environment variables (docs/architecture.md
 * §Configuration), so a config file that carries one is rejected rather than read.
 */
const SECRET_KEY = /api[-_]?key|token|secret|passw(or)?d|credential|private[-_]?key|auth(?!or)/i;

/** Paths (as key lists) of every key in the document whose name looks like a secret, at any depth. */
export function findSecretKeys(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => findSecretKeys(item, [...path, index]));
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [
    ...(SECRET_KEY.test(key) ? [[...path, key]] : []),
    ...findSecretKeys(child, [...path, key]),
  ]);
}
