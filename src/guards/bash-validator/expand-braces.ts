/** Most alternatives one word may expand to before the validator gives up (and blocks). */
export const MAX_BRACE_EXPANSIONS = 256;

/**
 * Bash brace expansion over a *pattern* string in which quoted characters are backslash-escaped, so only
 * unquoted braces expand (`{rm,x}` → `rm`, `x`; `{1..3}` → `1`, `2`, `3`). Escapes are kept in the
 * output; callers unescape. Returns null when the expansion would exceed `MAX_BRACE_EXPANSIONS`.
 */
export function expandBraces(pattern: string): string[] | null {
  if (!pattern.includes('{')) return [pattern];
  const results: string[] = [];
  return expandInto(pattern, results) ? results : null;
}

function expandInto(pattern: string, results: string[]): boolean {
  const brace = findBraceExpression(pattern);
  if (!brace) {
    results.push(pattern);
    return results.length <= MAX_BRACE_EXPANSIONS;
  }
  const prefix = pattern.slice(0, brace.start);
  const suffix = pattern.slice(brace.end + 1);
  for (const alternative of brace.alternatives) {
    if (!expandInto(prefix + alternative + suffix, results)) return false;
  }
  return true;
}

interface BraceExpression {
  start: number;
  end: number;
  alternatives: string[];
}

function findBraceExpression(pattern: string): BraceExpression | null {
  for (let start = 0; start < pattern.length; start += 1) {
    const ch = pattern[start];
    if (ch === '\\') {
      start += 1;
      continue;
    }
    // `${` starts a parameter expansion, never a brace expression.
    if (ch !== '{' || (start > 0 && pattern[start - 1] === '$')) continue;
    const end = findClosingBrace(pattern, start);
    if (end === -1) continue;
    const inner = pattern.slice(start + 1, end);
    const commaParts = splitTopLevelCommas(inner);
    if (commaParts.length > 1) return { start, end, alternatives: commaParts };
    const sequence = expandSequence(inner);
    if (sequence) return { start, end, alternatives: sequence };
  }
  return null;
}

function findClosingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 1;
    } else if (ch === '{') {
      depth += 1;
    } else if (ch === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function splitTopLevelCommas(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < inner.length; i += 1) {
    const ch = inner[i]!;
    if (ch === '\\') {
      current += ch + (inner[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (ch === '{') depth += 1;
    if (ch === '}') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

function expandSequence(inner: string): string[] | null {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(inner);
  const match = numeric ?? alpha;
  if (!match) return null;
  const from = numeric ? Number(match[1]) : match[1]!.charCodeAt(0);
  const to = numeric ? Number(match[2]) : match[2]!.charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > MAX_BRACE_EXPANSIONS) return Array.from({ length: MAX_BRACE_EXPANSIONS + 1 }, () => '');
  const direction = to >= from ? 1 : -1;
  const values: string[] = [];
  for (let k = 0; k < count; k += 1) {
    const n = from + direction * step * k;
    values.push(numeric ? String(n) : escapeIfSpecial(String.fromCharCode(n)));
  }
  return values;
}

function escapeIfSpecial(ch: string): string {
  return /[\\{},]/.test(ch) ? `\\${ch}` : ch;
}
