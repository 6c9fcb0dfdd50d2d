/**
 * Replaces `{{name}}` placeholders in every string of `value` (deeply) with `vars[name]`. Unknown names are
 * left in place and reported through `unknown`.
 */
export function applyTemplate<T>(
  value: T,
  vars: Record<string, string>,
  unknown: Set<string> = new Set(),
): T {
  return substitute(value, vars, unknown) as T;
}

function substitute(value: unknown, vars: Record<string, string>, unknown: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => {
      const replacement = vars[name];
      if (replacement === undefined) {
        unknown.add(name);
        return whole;
      }
      return replacement;
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars, unknown));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, vars, unknown)]),
    );
  }
  return value;
}
