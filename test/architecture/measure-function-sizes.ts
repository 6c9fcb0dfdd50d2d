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

/** Whether a line holds code: not blank, not only a comment (a `//` line or a line of a block comment). */
const isCodeLine = (text: string) => !/^\s*(?:$|\/\/|\/\*|\*)/.test(text);

/**
 * Every function in one file with its own lines (the code lines its body spans, less the lines of
 * functions nested in it, which are counted on their own; blank and comment lines do not count) and its
 * branch points (if, ?:, case, loops, catch, && || ??).
 */
export function measureFunctionSizes(path: string, source: string): FunctionSize[] {
  const file = ts.createSourceFile(
    path,
    source,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const code = source.split('\n').map(isCodeLine);
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  const sizes: FunctionSize[] = [];
  const measure = (fn: ts.FunctionLikeDeclaration & { body: ts.Node }): void => {
    const first = lineOf(fn.body.getStart(file));
    const last = lineOf(fn.body.getEnd());
    const nested = new Set<number>();
    let branches = 0;
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const body = node.body as ts.Node;
        // All of its lines are its own, the opening and closing ones too.
        for (let line = lineOf(body.getStart(file)); line <= lineOf(body.getEnd()); line++) nested.add(line);
        measure(node as ts.FunctionLikeDeclaration & { body: ts.Node });
        return;
      }
      if (BRANCHING.has(node.kind)) branches += 1;
      if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) branches += 1;
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn.body, visit);
    let ownLines = 0;
    for (let line = first; line <= last; line++) if (code[line] && !nested.has(line)) ownLines += 1;
    const at = lineOf(fn.getStart(file)) + 1;
    sizes.push({ where: `${path}:${at} ${nameOf(fn)}`, ownLines, branches });
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
