import { loadShellSyntax } from './load-shell-syntax.ts';
import type { ShellFile, ShellSyntax } from './shell-ast.ts';

export type ShellParseResult = { ok: true; file: ShellFile } | { ok: false; error: string };

let parser: { Parse(source: string, name: string): unknown } | undefined;

/** Parses bash source with mvdan/sh. Never throws: syntax errors come back as `{ ok: false, error }`. */
export function parseShellSource(source: string): ShellParseResult {
  try {
    const syntax: ShellSyntax = loadShellSyntax();
    parser ??= syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash));
    const file = parser.Parse(source, '') as ShellFile;
    return { ok: true, file };
  } catch (error) {
    return { ok: false, error: describeParseError(error) };
  }
}

function describeParseError(error: unknown): string {
  // mvdan-sh throws Go error values (objects with an Error() method), not JavaScript Errors.
  if (error !== null && typeof error === 'object') {
    const goError = error as { Error?: unknown; message?: unknown };
    if (typeof goError.Error === 'function') {
      const text: unknown = goError.Error();
      if (typeof text === 'string') return text;
    }
    if (typeof goError.message === 'string') return goError.message;
  }
  return String(error);
}
