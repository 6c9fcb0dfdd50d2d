import type { ShellLit, ShellRedirect, ShellWord } from './shell-ast.ts';

/**
 * The text a heredoc feeds to standard input, or null when it contains expansions. With an unquoted
 * delimiter bash removes the backslash before `$`, `` ` ``, `\` and a newline; with a quoted one the body
 * is taken literally.
 */
export function heredocText(redirect: ShellRedirect): string | null {
  const body = redirect.Hdoc;
  if (!body) return '';
  if (body.Parts.some((part) => part.type !== 'Lit')) return null;
  const raw = body.Parts.map((part) => (part as ShellLit).Value).join('');
  const delimiter = redirect.Word?.Parts ?? [];
  const quoted = delimiter.some((part) => part.type !== 'Lit' || (part as ShellLit).Value.includes('\\'));
  return quoted
    ? raw
    : raw.replace(/\\([$`\\\n])/g, (_match, escaped: string) => (escaped === '\n' ? '' : escaped));
}

/** Byte range of a heredoc body when it starts and ends with literal text (almost always), else null. */
export function heredocByteRange(body: ShellWord): [number, number] | null {
  const first = body.Parts[0];
  const last = body.Parts.at(-1);
  if (!first || !last || first.type !== 'Lit' || last.type !== 'Lit') return null;
  return [(first as ShellLit).ValuePos, (last as ShellLit).ValueEnd];
}
