/**
 * Plain-object view of the syntax tree produced by mvdan-sh (mvdan.cc/sh/v3/syntax compiled with GopherJS).
 * `convertGoSyntaxTree` copies the parser's internal Go structs into these objects once per parse: the
 * package's own wrapper API costs tens of microseconds per property access. Every node carries its Go type
 * name in `type` (`CallExpr`, `Word`, …) and every field of the Go struct; positions are byte offsets.
 */

export interface ShellNode {
  type: string;
}

export interface ShellFile extends ShellNode {
  Stmts: ShellStmt[];
}

export interface ShellStmt extends ShellNode {
  Cmd: ShellNode | null;
  Negated: boolean;
  Background: boolean;
  Coprocess: boolean;
  Redirs: ShellRedirect[];
}

export interface ShellRedirect extends ShellNode {
  Op: number;
  N: ShellLit | null;
  Word: ShellWord | null;
  Hdoc: ShellWord | null;
}

export interface ShellWord extends ShellNode {
  Parts: ShellNode[];
}

export interface ShellLit extends ShellNode {
  Value: string;
  /** Byte offsets of the literal in the source. */
  ValuePos: number;
  ValueEnd: number;
}

export interface ShellSglQuoted extends ShellNode {
  Dollar: boolean;
  Value: string;
}

export interface ShellDblQuoted extends ShellNode {
  Dollar: boolean;
  Parts: ShellNode[];
}

export interface ShellParamExp extends ShellNode {
  Short: boolean;
  Excl: boolean;
  Length: boolean;
  Width: boolean;
  Param: ShellLit | null;
  Index: ShellNode | null;
  Slice: { Offset: ShellNode | null; Length: ShellNode | null } | null;
  Repl: { All: boolean; Orig: ShellWord | null; With: ShellWord | null } | null;
  Names: number;
  Exp: { Op: number; Word: ShellWord | null } | null;
}

export interface ShellStmtList extends ShellNode {
  Stmts: ShellStmt[];
}

export interface ShellProcSubst extends ShellStmtList {
  Op: number;
}

export interface ShellArithmExp extends ShellNode {
  Bracket: boolean;
  X: ShellNode | null;
}

export interface ShellBinaryArithm extends ShellNode {
  Op: number;
  X: ShellNode;
  Y: ShellNode;
}

export interface ShellUnaryArithm extends ShellNode {
  Op: number;
  Post: boolean;
  X: ShellNode;
}

export interface ShellParenArithm extends ShellNode {
  X: ShellNode;
}

export interface ShellAssign extends ShellNode {
  Append: boolean;
  Naked: boolean;
  Name: ShellLit | null;
  Index: ShellNode | null;
  Value: ShellWord | null;
  Array: { Elems: Array<{ Index: ShellNode | null; Value: ShellWord | null }> } | null;
}

export interface ShellCallExpr extends ShellNode {
  Assigns: ShellAssign[];
  Args: ShellWord[];
}

export interface ShellBinaryCmd extends ShellNode {
  Op: number;
  X: ShellStmt;
  Y: ShellStmt;
}

export interface ShellIfClause extends ShellNode {
  Cond: ShellStmt[];
  Then: ShellStmt[];
  Else: ShellIfClause | null;
}

export interface ShellWhileClause extends ShellNode {
  Until: boolean;
  Cond: ShellStmt[];
  Do: ShellStmt[];
}

export interface ShellForClause extends ShellNode {
  Select: boolean;
  Loop: ShellNode;
  Do: ShellStmt[];
}

export interface ShellWordIter extends ShellNode {
  Name: ShellLit;
  Items: ShellWord[];
}

export interface ShellCStyleLoop extends ShellNode {
  Init: ShellNode | null;
  Cond: ShellNode | null;
  Post: ShellNode | null;
}

export interface ShellCaseClause extends ShellNode {
  Word: ShellWord;
  Items: Array<{ Patterns: ShellWord[]; Stmts: ShellStmt[] }>;
}

export interface ShellFuncDecl extends ShellNode {
  Name: ShellLit;
  Body: ShellStmt;
}

export interface ShellArithmCmd extends ShellNode {
  X: ShellNode;
}

export interface ShellTestClause extends ShellNode {
  X: ShellNode;
}

export interface ShellBinaryTest extends ShellNode {
  Op: number;
  X: ShellNode;
  Y: ShellNode;
}

export interface ShellUnaryTest extends ShellNode {
  Op: number;
  X: ShellNode;
}

export interface ShellParenTest extends ShellNode {
  X: ShellNode;
}

export interface ShellDeclClause extends ShellNode {
  Variant: ShellLit;
  Args: ShellAssign[];
}

export interface ShellLetClause extends ShellNode {
  Exprs: ShellNode[];
}

export interface ShellTimeClause extends ShellNode {
  Stmt: ShellStmt | null;
}

export interface ShellCoprocClause extends ShellNode {
  Name: ShellWord | null;
  Stmt: ShellStmt;
}

/** The parts of mvdan-sh's `syntax` package the validator calls (through its slow wrapper API). */
export interface ShellSyntax {
  NewParser(...options: unknown[]): { Parse(source: string, name: string): unknown };
  KeepComments(enabled: boolean): unknown;
  Variant(variant: number): unknown;
  readonly LangBash: number;
}

/** Token values of mvdan.cc/sh v3 (pinned mvdan-sh 0.10.1); asserted by shell-ast.test.ts. */
export const SHELL_OP = {
  andStmt: 10,
  orStmt: 11,
  pipe: 12,
  pipeAll: 13,
  rdrOut: 54,
  appOut: 55,
  rdrIn: 56,
  rdrInOut: 57,
  dplIn: 58,
  dplOut: 59,
  clbOut: 60,
  hdoc: 61,
  dashHdoc: 62,
  wordHdoc: 63,
  rdrAll: 64,
  appAll: 65,
  paramExpAt: 84,
  testEq: 116,
  testNe: 117,
  testLe: 118,
  testGe: 119,
  testLt: 120,
  testGt: 121,
  testVarSet: 110,
  arithAssign: 74,
  arithAddAssign: 44,
  arithXorAssign: 51,
  arithShrAssign: 53,
  arithInc: 36,
  arithDec: 37,
} as const;
