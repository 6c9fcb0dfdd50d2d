import type { z } from 'zod';
import { editDistance } from '../shared/edit-distance.ts';
import { formatIssuePath } from '../shared/format-zod-issues.ts';

/**
 * Per-parse zod error map for issues that carry no schema-level message (the reused bash validator
 * schema): phrase them as expectations too, so every line reads `<path>: expected …, got …`.
 */
export const configErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') return EXPECTED_TYPES[issue.expected] ?? `a ${issue.expected}`;
  if (issue.code === 'too_small' && issue.origin === 'string') return 'a non-empty string';
  return undefined;
};

const EXPECTED_TYPES: Record<string, string> = {
  array: 'a list',
  object: 'an object',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
};

export interface FormatConfigIssuesParams {
  issues: readonly z.core.$ZodIssue[];
  /** The parsed JSON, to quote the offending value. */
  input: unknown;
  /** Prefix of every message, e.g. `flotilla.config.json`. */
  fileLabel: string;
  /** Known keys of the object at a path, for unknown-key messages. */
  knownKeysAt: (path: readonly PropertyKey[]) => readonly string[];
  /** Paths (formatted) already reported elsewhere, e.g. secret keys; skipped here. */
  skipPaths?: ReadonlySet<string>;
}

/** One readable line per problem: the file, the field path, what was expected and what was found. */
export function formatConfigIssues(params: FormatConfigIssuesParams): string[] {
  const lines: string[] = [];
  const reported = new Set<string>();
  for (const issue of params.issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = params.knownKeysAt(issue.path);
      for (const key of issue.keys) {
        const path = formatIssuePath([...issue.path, key]);
        if (params.skipPaths?.has(path)) continue;
        const suggestion = closestKey(key, known);
        lines.push(
          `${params.fileLabel}: ${path}: unknown key${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; expected one of: ${known.join(', ')}`,
        );
      }
      continue;
    }
    // One line per field: a value failing two checks (empty *and* malformed) needs only one fix message.
    const path = formatIssuePath(issue.path);
    if (reported.has(path)) continue;
    reported.add(path);
    const expectation =
      issue.message.startsWith('expected ') || issue.code === 'custom' || issue.code === 'invalid_format'
        ? issue.message
        : `expected ${issue.message}`;
    const value = valueAt(params.input, issue.path);
    const got = value.found ? `, got ${renderValue(value.value)}` : '';
    lines.push(`${params.fileLabel}: ${path}: ${expectation}${got}`);
  }
  return lines;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
      return { found: false };
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { found: true, value: current };
}

const MAX_RENDERED = 80;

function renderValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_RENDERED ? `${text.slice(0, MAX_RENDERED - 1)}…` : text;
}

/** The known key within edit distance 2 (case-insensitive), if any: catches typos like `maxAttemps`. */
function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance))
      best = { key: candidate, distance };
  }
  return best?.key;
}
