import { describe, expect, it } from 'vitest';
import { DYNAMIC_MARK } from './command-word.ts';
import { evaluateWord } from './evaluate-word.ts';
import { parseShellSource } from './parse-shell-source.ts';
import type { ShellCallExpr, ShellFile } from './shell-ast.ts';

function evaluateFirstArgument(source: string) {
  const parsed = parseShellSource(source);
  if (!parsed.ok) throw new Error(parsed.error);
  const call = (parsed.file as ShellFile).Stmts[0]!.Cmd as ShellCallExpr;
  return evaluateWord(call.Args[0]!);
}

describe('evaluateWord', () => {
  it.each([
    ["r''m", 'rm'],
    ['r""m', 'rm'],
    ['\\rm', 'rm'],
    ['"rm"', 'rm'],
    ["$'\\x72m'", 'rm'],
    ['"a\\"b\\$c\\x"', 'a"b$c\\x'],
    ['a\\ b', 'a b'],
  ])('evaluates %j to %j', (source, expected) => {
    expect(evaluateFirstArgument(source)).toEqual([
      expect.objectContaining({ value: expected, dynamic: false }),
    ]);
  });

  it('marks expansions as dynamic and keeps the literal parts', () => {
    const [word] = evaluateFirstArgument('--out=$X')!;
    expect(word).toMatchObject({ value: `--out=${DYNAMIC_MARK}`, dynamic: true });
    expect(evaluateFirstArgument('"$(ls)"')![0]!.dynamic).toBe(true);
    expect(evaluateFirstArgument('$((1+2))')![0]!.dynamic).toBe(true);
  });

  it('treats locale-translated $"…" strings as run-time values', () => {
    expect(evaluateFirstArgument('$"git"')![0]!.dynamic).toBe(true);
  });

  it('flags unquoted globs only', () => {
    expect(evaluateFirstArgument('*.ts')![0]!.glob).toBe(true);
    expect(evaluateFirstArgument('"*.ts"')![0]!.glob).toBe(false);
    expect(evaluateFirstArgument('\\*.ts')![0]!.glob).toBe(false);
  });

  it('applies brace expansion to unquoted braces only', () => {
    expect(evaluateFirstArgument('{rm,x}')!.map((word) => word.value)).toEqual(['rm', 'x']);
    expect(evaluateFirstArgument('"{rm,x}"')!.map((word) => word.value)).toEqual(['{rm,x}']);
  });

  it('masks quoted text for the textual patterns', () => {
    expect(evaluateFirstArgument('"kill it"')![0]!.masked).toBe('"       "');
  });
});
