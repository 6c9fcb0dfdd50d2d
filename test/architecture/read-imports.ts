import ts from 'typescript';

/** How a module is referenced; every kind counts, type-only ones included (they tie floors together too). */
export type ImportKind =
  | 'import'
  | 'import type'
  | 'export from'
  | 'dynamic import'
  | 'type-position import()'
  | 'require'
  | 'import.meta.resolve';

export interface ImportReference {
  /** The module specifier as written; null when it is computed at run time and cannot be checked. */
  specifier: string | null;
  kind: ImportKind;
  /** 1-based. */
  line: number;
}

/**
 * Every module reference in one TypeScript/TSX source, read from its syntax tree (not by pattern), so
 * multi-line imports, `export … from`, `import type`, `import('x')` in code and in types, `require` /
 * `require.resolve` and `import.meta.resolve` are all seen. Comments and strings are not references.
 */
export function readImports(source: string, fileName: string): ImportReference[] {
  const scriptKind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind);
  const found: ImportReference[] = [];
  const add = (node: ts.Node, kind: ImportKind, specifier: ts.Node | undefined) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    const literal = specifier !== undefined && ts.isStringLiteralLike(specifier) ? specifier.text : null;
    found.push({ specifier: literal, kind, line });
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const typeOnly = node.importClause?.isTypeOnly === true;
      add(node, typeOnly ? 'import type' : 'import', node.moduleSpecifier);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      add(node, 'export from', node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, 'require', node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node)) {
      const argument = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      add(node, 'type-position import()', argument);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) add(node, 'dynamic import', node.arguments[0]);
      else if (isRequire(callee)) add(node, 'require', node.arguments[0]);
      else if (isImportMetaResolve(callee)) add(node, 'import.meta.resolve', node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `require(…)` or `require.resolve(…)` (a `require` made with createRequire included). */
function isRequire(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  return (
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === 'resolve' &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === 'require'
  );
}

function isImportMetaResolve(callee: ts.Expression): boolean {
  return (
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === 'resolve' &&
    ts.isMetaProperty(callee.expression) &&
    callee.expression.keywordToken === ts.SyntaxKind.ImportKeyword
  );
}
