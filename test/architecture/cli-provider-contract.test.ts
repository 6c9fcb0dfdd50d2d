import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { SourceFileImports } from './check-dependencies.ts';
import { readSourceTree } from './read-source-tree.ts';

/**
 * The CLI and the HTTP API reach trackers through the provider contract (issue #27 §2): they hold a
 * `Provider` (src/providers/types.ts) with its optional capabilities, found through the registry
 * (src/providers/registry.ts, provider-descriptor.ts), and never branch on which provider is configured nor
 * import a provider's own folder. Production files only: tests and test-support set up real providers.
 */
const ROOT = join(import.meta.dirname, '../..');
const ALLOWED_PROVIDER_MODULES = new Set([
  'src/providers/registry.ts',
  'src/providers/types.ts',
  'src/providers/provider-descriptor.ts',
]);

/**
 * Files that still break a rule, each with why. Shrink it; never grow it without a reason beside the entry.
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {};

const PRODUCTION = (path: string) => !/\.test\.tsx?$/.test(path) && !path.includes('/test-support/');
const files = [...readSourceTree(ROOT, 'src/cli'), ...readSourceTree(ROOT, 'src/api')].filter((file) =>
  PRODUCTION(file.path),
);

/** `file:line specifier` for every import of a module inside a provider's folder. */
function providerFolderImportsOf(file: SourceFileImports): string[] {
  return file.imports.flatMap(({ specifier, line }) => {
    if (specifier === null || !specifier.startsWith('.')) return [];
    const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
    const inFolder = target.startsWith('src/providers/') && !ALLOWED_PROVIDER_MODULES.has(target);
    return inFolder ? [`${file.path}:${line} ${specifier}`] : [];
  });
}

const providerFolderImports = () => files.flatMap(providerFolderImportsOf);

/** `file:line text` for every comparison or switch on a provider's name (`config.provider === '…'`). */
function providerBranches(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names = (node: ts.Expression) => /(?:^|\.)provider(?:\.name)?$/i.test(node.getText(file));
  const literal = (node: ts.Expression) => ts.isStringLiteralLike(node);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const equality =
      ts.isBinaryExpression(node) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
      ].includes(node.operatorToken.kind) &&
      ((names(node.left) && literal(node.right)) || (names(node.right) && literal(node.left)));
    if (equality || (ts.isSwitchStatement(node) && names(node.expression))) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push(`${path}:${line} ${node.getText(file).split('\n')[0]}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The `work` commands and `answer` (src/cli/commands/work-*-command.ts, answer-command.ts) hold the provider
 * only: `file:line specifier` for each import of the SQLite tracker or of the CLI's helpers over it.
 */
const LOCAL_TRACKER_MODULES = [
  'src/storage/index.ts',
  'src/cli/support/open-local-tracker.ts',
  'src/cli/support/require-local-tracker.ts',
  'src/cli/support/require-work-item.ts',
];
function localTrackerImports(): string[] {
  return files
    .filter((file) => /^src\/cli\/commands\/(?:work-[a-z-]+|answer)-command\.ts$/.test(file.path))
    .flatMap((file) =>
      file.imports.flatMap(({ specifier, line }) => {
        if (specifier === null) return [];
        const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
        return LOCAL_TRACKER_MODULES.includes(target) ? [`${file.path}:${line} ${specifier}`] : [];
      }),
    );
}

function allProviderBranches(): string[] {
  return files.flatMap((file) => providerBranches(file.path, readFileSync(join(ROOT, file.path), 'utf8')));
}

const fileOf = (offence: string) => offence.slice(0, offence.indexOf(':'));

describe('the CLI and the HTTP API see trackers through the provider contract', () => {
  it('reads the CLI and API sources (the check sees something)', () => {
    expect(files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['src/cli/commands/work-list-command.ts', 'src/api/create-api-app.ts']),
    );
  });

  it('no file branches on the configured provider (but the listed exceptions)', () => {
    expect(allProviderBranches().filter((offence) => !Object.hasOwn(EXCEPTIONS, fileOf(offence)))).toEqual(
      [],
    );
  });

  it("no file imports a provider's folder, only the registry and the contract (but the listed exceptions)", () => {
    expect(providerFolderImports().filter((offence) => !Object.hasOwn(EXCEPTIONS, fileOf(offence)))).toEqual(
      [],
    );
  });

  it('the work commands hold the provider, never the SQLite tracker (but the listed exceptions)', () => {
    expect(localTrackerImports().filter((offence) => !Object.hasOwn(EXCEPTIONS, fileOf(offence)))).toEqual(
      [],
    );
  });

  it('every exception still breaks a rule (an exception nothing needs is removed)', () => {
    const offending = new Set(
      [...allProviderBranches(), ...providerFolderImports(), ...localTrackerImports()].map(fileOf),
    );
    expect(Object.keys(EXCEPTIONS).filter((file) => !offending.has(file))).toEqual([]);
  });

  it('sees a branch on a provider name and an import of a provider folder', () => {
    expect(
      providerBranches(
        'x.ts',
        "if (config.provider === 'github') a();\nswitch (context.provider.name) {}\nif (x === 'github') b();",
      ),
    ).toEqual(["x.ts:1 config.provider === 'github'", 'x.ts:2 switch (context.provider.name) {}']);
    const imports = (specifier: string) => ({ specifier, kind: 'import' as const, line: 1 });
    expect(
      providerFolderImportsOf({
        path: 'src/cli/commands/x.ts',
        imports: [
          imports('../../providers/local/create-local-provider.ts'),
          imports('../../providers/registry.ts'),
          imports('../../providers/types.ts'),
        ],
      }),
    ).toEqual(['src/cli/commands/x.ts:1 ../../providers/local/create-local-provider.ts']);
  });
});
