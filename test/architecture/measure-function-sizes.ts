import ts from 'typescript';

/** One function's size: its own lines (nested functions' lines not counted) and its branches. */
export interface FunctionSize {
  /** `path:line name`, the name as written or `<anonymous>`. */
  where: string;
  ownLines: number;
  branches: number;
}

const BRANCHING = new Set([
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.CatchClause,
]);
const LOGICAL = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
]);

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '<anonymous>';
}

/**
 * Every function in one file with its own lines (the lines its body spans, less those of functions nested in
 * it, which are counted on their own) and its branch points (if, ?:, case, loops, catch, && || ??).
 */
export function measureFunctionSizes(path: string, source: string): FunctionSize[] {
  const file = ts.createSourceFile(
    path,
    source,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  const sizes: FunctionSize[] = [];

  /** Measures `fn`, returning the lines it spans so its parent can leave them out. */
  const measure = (fn: ts.FunctionLikeDeclaration & { body: ts.Node }): number => {
    const spanned = lineOf(fn.body.getEnd()) - lineOf(fn.body.getStart(file)) + 1;
    let nestedLines = 0;
    let branches = 0;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        nestedLines += measure(node as ts.FunctionLikeDeclaration & { body: ts.Node });
        return;
      }
      if (BRANCHING.has(node.kind)) branches += 1;
      if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) branches += 1;
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn.body, visit);
    const line = lineOf(fn.getStart(file)) + 1;
    sizes.push({ where: `${path}:${line} ${nameOf(fn)}`, ownLines: spanned - nestedLines, branches });
    return spanned;
  };
  const visitTop = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      measure(node as ts.FunctionLikeDeclaration & { body: ts.Node });
      return;
    }
    ts.forEachChild(node, visitTop);
  };
  visitTop(file);
  return sizes;
}
