// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash source, where ${…} is literal syntax.
import { describe, expect, it } from 'vitest';
import { loadShellSyntax } from './load-shell-syntax.ts';
import { parseShellSource } from './parse-shell-source.ts';
import { SHELL_OP, type ShellFile, type ShellNode } from './shell-ast.ts';

function firstCommand(source: string): ShellNode & Record<string, unknown> {
  const parsed = parseShellSource(source);
  if (!parsed.ok) throw new Error(parsed.error);
  return (parsed.file as ShellFile).Stmts[0]!.Cmd as ShellNode & Record<string, unknown>;
}

function firstRedirectOp(source: string): number {
  const parsed = parseShellSource(source);
  if (!parsed.ok) throw new Error(parsed.error);
  return (parsed.file as ShellFile).Stmts[0]!.Redirs[0]!.Op;
}

describe('SHELL_OP matches the pinned mvdan-sh token values', () => {
  it.each([
    ['a && b', SHELL_OP.andStmt],
    ['a || b', SHELL_OP.orStmt],
    ['a | b', SHELL_OP.pipe],
    ['a |& b', SHELL_OP.pipeAll],
  ])('binary command %j', (source, op) => {
    expect(firstCommand(source).Op).toBe(op);
  });

  it.each([
    ['a > f', SHELL_OP.rdrOut],
    ['a >> f', SHELL_OP.appOut],
    ['a < f', SHELL_OP.rdrIn],
    ['a <> f', SHELL_OP.rdrInOut],
    ['a <&0', SHELL_OP.dplIn],
    ['a >&2', SHELL_OP.dplOut],
    ['a >| f', SHELL_OP.clbOut],
    ['a <<E\nx\nE', SHELL_OP.hdoc],
    ['a <<-E\nx\nE', SHELL_OP.dashHdoc],
    ['a <<< x', SHELL_OP.wordHdoc],
    ['a &> f', SHELL_OP.rdrAll],
    ['a &>> f', SHELL_OP.appAll],
  ])('redirection %j', (source, op) => {
    expect(firstRedirectOp(source)).toBe(op);
  });

  it.each([
    ['-eq', SHELL_OP.testEq],
    ['-ne', SHELL_OP.testNe],
    ['-le', SHELL_OP.testLe],
    ['-ge', SHELL_OP.testGe],
    ['-lt', SHELL_OP.testLt],
    ['-gt', SHELL_OP.testGt],
  ])('test operator %s', (operator, op) => {
    expect((firstCommand(`[[ a ${operator} b ]]`).X as { Op: number }).Op).toBe(op);
  });

  it('test -v, arithmetic assignment and increment, ${x@P}', () => {
    expect((firstCommand('[[ -v a ]]').X as { Op: number }).Op).toBe(SHELL_OP.testVarSet);
    expect((firstCommand('(( a = 1 ))').X as { Op: number }).Op).toBe(SHELL_OP.arithAssign);
    expect((firstCommand('(( a += 1 ))').X as { Op: number }).Op).toBe(SHELL_OP.arithAddAssign);
    expect((firstCommand('(( a ^= 1 ))').X as { Op: number }).Op).toBe(SHELL_OP.arithXorAssign);
    expect((firstCommand('(( a >>= 1 ))').X as { Op: number }).Op).toBe(SHELL_OP.arithShrAssign);
    expect((firstCommand('(( a++ ))').X as { Op: number }).Op).toBe(SHELL_OP.arithInc);
    expect((firstCommand('(( a-- ))').X as { Op: number }).Op).toBe(SHELL_OP.arithDec);
    const args = firstCommand('echo ${x@P}').Args as Array<{ Parts: Array<{ Exp: { Op: number } }> }>;
    expect(args[1]!.Parts[0]!.Exp.Op).toBe(SHELL_OP.paramExpAt);
  });
});

describe('loadShellSyntax', () => {
  it('restores the globals the GopherJS runtime changes', () => {
    loadShellSyntax();
    expect(Error.stackTraceLimit).not.toBe(Number.POSITIVE_INFINITY);
    expect(Object.hasOwn(globalThis, 'require')).toBe(false);
  });

  it('reports syntax errors as values, never by throwing', () => {
    expect(parseShellSource('git status ;; git log')).toEqual({
      ok: false,
      error: '1:12: ;; can only be used in a case clause',
    });
  });
});
