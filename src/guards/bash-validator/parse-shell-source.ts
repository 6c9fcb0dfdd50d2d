import { convertGoSyntaxTree } from './convert-go-syntax-tree.ts';
import { loadShellSyntax } from './load-shell-syntax.ts';
import type { ShellFile } from './shell-ast.ts';

export type ShellParseResult = { ok: true; file: ShellFile } | { ok: false; error: string };

interface ParserState {
  parser: { Parse(source: string, name: string): unknown };
  nilInterface: unknown;
}

let state: ParserState | undefined;

/**
 * Parses bash source with mvdan/sh and returns a plain syntax tree (see shell-ast.ts). Never throws:
 * syntax errors (and any failure to read the tree) come back as `{ ok: false, error }`.
 */
export function parseShellSource(source: string): ShellParseResult {
  try {
    state ??= createParserState();
    const wrapped = state.parser.Parse(source, '') as { __internal_object__?: unknown };
    const file = convertGoSyntaxTree(wrapped.__internal_object__, state.nilInterface) as ShellFile;
    if (file.type !== 'File' || !Array.isArray(file.Stmts)) throw new Error('the parser returned no file');
    return { ok: true, file };
  } catch (error) {
    return { ok: false, error: describeParseError(error) };
  }
}

function createParserState(): ParserState {
  const syntax = loadShellSyntax();
  const parser = syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash));
  // GopherJS represents every nil interface with one shared object; `${x}` has a nil Index interface.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source.
  const sample = parser.Parse('${x}', '') as { __internal_object__: GoFileSample };
  const stmts = sample.__internal_object__.Stmts;
  const word = stmts.$array[stmts.$offset]!.Cmd.Args;
  const paramExp = word.$array[word.$offset]!.Parts;
  const nilInterface = paramExp.$array[paramExp.$offset]!.Index;
  if (nilInterface === null || typeof nilInterface !== 'object')
    throw new Error('cannot find the nil interface');
  return { parser, nilInterface };
}

interface GoSliceOf<T> {
  $array: T[];
  $offset: number;
}

interface GoFileSample {
  Stmts: GoSliceOf<{ Cmd: { Args: GoSliceOf<{ Parts: GoSliceOf<{ Index: unknown }> }> } }>;
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
