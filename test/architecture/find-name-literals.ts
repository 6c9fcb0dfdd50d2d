import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Every string literal (quoted or a template without substitutions) in a TypeScript source text. */
export function stringLiterals(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

/**
 * The registry-names rule both names tests hold (issue #27): every production file under `src/` (not tests)
 * that `skip` does not exclude and that holds one of `names` as a whole string
 * literal, as `<file>: 'name', …`.
 */
export function findNameLiterals(
  root: string,
  names: ReadonlySet<string>,
  skip: (file: string) => boolean,
): string[] {
  return productionFiles(join(root, 'src')).flatMap((path) => {
    const file = relative(root, path);
    if (skip(file)) return [];
    const named = stringLiterals(readFileSync(path, 'utf8')).filter((text) => names.has(text));
    return named.length === 0
      ? []
      : [`${file}: ${[...new Set(named)].map((text) => `'${text}'`).join(', ')}`];
  });
}

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
