import type { z } from 'zod';

/** `scheduler.maxAttempts`, `create[0].title`; `(root)` for the document itself. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** One line per Zod issue: `<path>: <message>`, e.g. `create[0].title: Invalid input: expected string`. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`);
}
