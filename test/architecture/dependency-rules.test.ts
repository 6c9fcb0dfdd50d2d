import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDependencies, formatViolation, type SourceFileImports } from './check-dependencies.ts';
import { DEPENDENCY_RULES, type DependencyRules } from './dependency-rules.ts';
import type { ImportReference } from './read-imports.ts';
import { readSourceTree } from './read-source-tree.ts';

const REPO_ROOT = join(import.meta.dirname, '../..');

describe('the floors of src/ (test/architecture/dependency-rules.ts)', () => {
  const tree = readSourceTree(REPO_ROOT, 'src');

  it('every import of every production file in src/ is allowed by the table', () => {
    expect(tree.length).toBeGreaterThan(300);
    const { violations, unusedExceptions } = checkDependencies(tree, DEPENDENCY_RULES);
    expect(violations.map(formatViolation)).toEqual([]);
    // A known exception nothing needs any more goes, so the table never hides a new violation.
    expect(unusedExceptions.map((exception) => exception.reason)).toEqual([]);
  });

  it('only src/runtimes/claude/ imports the Claude Agent SDK or gray-matter (and the check sees its imports)', () => {
    const importers = tree
      .filter((file) => !DEPENDENCY_RULES.testSupport(file.path))
      .filter((file) =>
        file.imports.some(({ specifier }) =>
          /^(?:@anthropic-ai\/claude-agent-sdk|gray-matter)(?:\/|$)/.test(specifier ?? ''),
        ),
      )
      .map((file) => file.path);
    expect(importers).toContain('src/runtimes/claude/prepare-claude-turn.ts');
    expect(importers).toContain('src/runtimes/claude/load-agent-definition.ts');
    expect(importers.filter((path) => !path.startsWith('src/runtimes/claude/'))).toEqual([]);
  });

  it('the table names only floors it defines, and no path belongs to two floors by accident', () => {
    const names = DEPENDENCY_RULES.floors.map((floor) => floor.name);
    expect(new Set(names).size).toBe(names.length);
    const named = [
      ...DEPENDENCY_RULES.floors.flatMap((floor) =>
        floor.mayImport === 'every floor' ? [] : floor.mayImport,
      ),
      ...Object.values(DEPENDENCY_RULES.packages).flatMap((rule) =>
        rule.floors === 'all but domain' ? [] : rule.floors,
      ),
    ];
    expect(named.filter((name) => !names.includes(name))).toEqual([]);
    // A more specific path is listed before the floor whose folder holds it (first match wins).
    const paths = DEPENDENCY_RULES.floors.flatMap((floor) => floor.paths.map((path) => ({ path, floor })));
    for (const [index, { path }] of paths.entries()) {
      const shadowedBy = paths.slice(0, index).find((earlier) => path.startsWith(earlier.path));
      expect(shadowedBy, `${path} is hidden behind ${shadowedBy?.path}`).toBeUndefined();
    }
  });

  it('the floors stack: no two floors may import each other, directly or around a loop', () => {
    const mayImport = new Map(
      DEPENDENCY_RULES.floors.map((floor) => [
        floor.name,
        floor.mayImport === 'every floor'
          ? DEPENDENCY_RULES.floors.map((other) => other.name).filter((name) => name !== floor.name)
          : floor.mayImport,
      ]),
    );
    const loops: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) {
        loops.push([...path.slice(path.indexOf(name)), name].join(' → '));
        return;
      }
      for (const next of mayImport.get(name) ?? []) visit(next, [...path, name]);
    };
    for (const name of mayImport.keys()) visit(name, []);
    expect(loops).toEqual([]);
  });

  it('every package a production floor may import is a runtime dependency, and every dependency has a row', async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const dependencies = Object.keys(manifest.dependencies).sort();
    expect(Object.keys(DEPENDENCY_RULES.packages).sort()).toEqual(dependencies);
    for (const name of DEPENDENCY_RULES.testOnlyPackages) expect(dependencies).not.toContain(name);
  });
});

describe('the check fails on a bad import', () => {
  const file = (
    path: string,
    ...imports: [string | null, ImportReference['kind']?][]
  ): SourceFileImports => ({
    path,
    imports: imports.map(([specifier, kind = 'import'], index) => ({ specifier, kind, line: index + 1 })),
  });
  const check = (files: SourceFileImports[], rules: DependencyRules = DEPENDENCY_RULES) =>
    checkDependencies(files, rules).violations.map(formatViolation);

  it('names the file, the line, the import and the rule broken, one line per bad import', () => {
    const violations = check([
      file('src/domain/spec.ts', ['../engine/create-engine.ts', 'import type'], ['node:fs']),
      file('src/engine/pollers/poll.ts', ['../../storage/index.ts', 'import type']),
      file('src/engine/create-engine.ts', ['../runtimes/claude/create-claude-adapter.ts', 'export from']),
      file('src/engine/handlers/handle-x.ts', ['../../logging/logger.ts']),
      file('src/runtimes/scripted/run.ts', ['../../engine/state-store/engine-state.ts', 'dynamic import']),
      file('src/storage/repo.ts', ['../engine/state-store/engine-state.ts', 'import type']),
      file('src/storage/tracker.ts', ['../providers/types.ts', 'import type']),
      file('src/tui/view.tsx', ['../app/create-control-plane.ts']),
      file('src/providers/local/sdk.ts', ['@anthropic-ai/claude-agent-sdk/embed', 'type-position import()']),
      file('src/tui/db.ts', ['better-sqlite3']),
      file('src/engine/helper.ts', ['../../test/support/create-temp-dir.ts'], ['./x.test.ts']),
      file('src/process/run.ts', ['vitest'], ['left-pad', 'require'], [null, 'dynamic import']),
      file('src/attic/old.ts', ['../domain/index.ts']),
    ]);
    expect(violations).toEqual([
      "src/domain/spec.ts:1 import type '../engine/create-engine.ts': domain must not import engine (domain: pure types and tables; imports nothing; it may import nothing)",
      "src/domain/spec.ts:2 import 'node:fs': domain imports nothing, not even Node built-ins",
      expect.stringMatching(
        /^src\/engine\/pollers\/poll\.ts:1 import type '\.\.\/\.\.\/storage\/index\.ts': engine must not import storage \(/,
      ),
      expect.stringMatching(
        /^src\/engine\/create-engine\.ts:1 export from .*: engine must not import runtimes\/claude/,
      ),
      expect.stringMatching(
        /^src\/engine\/handlers\/handle-x\.ts:1 import .*: engine\/handlers must not import logging \(engine\/handlers: pure handlers/,
      ),
      expect.stringMatching(
        /^src\/runtimes\/scripted\/run\.ts:1 dynamic import .*: runtimes\/scripted must not import engine\/state-store/,
      ),
      expect.stringMatching(
        /^src\/storage\/repo\.ts:1 import type .*: storage must not import engine\/state-store/,
      ),
      expect.stringMatching(
        /^src\/storage\/tracker\.ts:1 import type .*: storage must not import provider-contract/,
      ),
      expect.stringMatching(/^src\/tui\/view\.tsx:1 import .*: tui must not import app/),
      "src/providers/local/sdk.ts:1 type-position import() '@anthropic-ai/claude-agent-sdk/embed': only runtimes/claude may import @anthropic-ai/claude-agent-sdk, not providers/local",
      "src/tui/db.ts:1 import 'better-sqlite3': only storage may import better-sqlite3, not tui",
      "src/engine/helper.ts:1 import '../../test/support/create-temp-dir.ts': production code must not import test support (test/support/create-temp-dir.ts)",
      "src/engine/helper.ts:2 import './x.test.ts': production code must not import test support (src/engine/x.test.ts)",
      "src/process/run.ts:1 import 'vitest': production code must not import the test-only package vitest",
      "src/process/run.ts:2 require 'left-pad': package left-pad is not in the package table of test/architecture/dependency-rules.ts: say which floors may import it",
      'src/process/run.ts:3 dynamic import a computed specifier: a computed module specifier cannot be checked: import a literal path',
      "src/attic/old.ts:1 import '../domain/index.ts': src/attic/old.ts belongs to no floor: add its folder to test/architecture/dependency-rules.ts",
    ]);
  });

  it('lets the allowed imports through, and tests import what they need', () => {
    expect(
      check([
        file(
          'src/engine/create-engine.ts',
          ['./runtime-contract/runtime-contract.ts'],
          ['../providers/types.ts'],
        ),
        file(
          'src/runtimes/claude/create-claude-adapter.ts',
          ['@anthropic-ai/claude-agent-sdk'],
          ['../../workspace/x.ts'],
        ),
        file(
          'src/cli/main.ts',
          ['../app/create-control-plane.ts'],
          ['commander'],
          ['../tui/run-dashboard.tsx'],
        ),
        file('src/storage/index.ts', ['better-sqlite3'], ['../domain/index.ts'], ['node:fs']),
        file(
          'src/engine/create-engine.test.ts',
          ['../storage/index.ts'],
          ['vitest'],
          ['../../test/support/x.ts'],
        ),
        file('test/support/engine/build-state.ts', ['../../../src/runtimes/scripted/x.ts']),
      ]),
    ).toEqual([]);
  });

  it('tolerates a named exception while it is needed, and reports it once nothing needs it', () => {
    const exception = {
      reason: 'being removed by another branch',
      edges: [{ from: 'src/storage/tracker/', to: 'src/providers/types.ts' }],
    };
    const rules = { ...DEPENDENCY_RULES, exceptions: [exception] };
    const needed = checkDependencies(
      [file('src/storage/tracker/tracker.ts', ['../../providers/types.ts'])],
      rules,
    );
    expect(needed).toEqual({ violations: [], unusedExceptions: [] });
    const elsewhere = checkDependencies([file('src/storage/other.ts', ['../providers/types.ts'])], rules);
    expect(elsewhere.violations).toHaveLength(1);
    const stale = checkDependencies(
      [file('src/storage/tracker/tracker.ts', ['../../domain/index.ts'])],
      rules,
    );
    expect(stale).toEqual({ violations: [], unusedExceptions: [exception] });
  });

  describe('on a real file (every way of importing is read)', () => {
    let root: string | undefined;
    afterEach(async () => {
      if (root !== undefined) await rm(root, { recursive: true, force: true });
    });

    it('finds static, type-only, re-exported, dynamic, type-position and require imports', async () => {
      root = await mkdtemp(join(tmpdir(), 'flotilla-architecture-'));
      await mkdir(join(root, 'src', 'engine'), { recursive: true });
      await writeFile(
        join(root, 'src', 'engine', 'bad.ts'),
        [
          "import { createRequire } from 'node:module';",
          'import type {',
          '  StoredAgentRun,',
          "} from '../storage/index.ts';",
          "export { createTui } from '../tui/index.ts';",
          "// import { ignored } from '../storage/comment.ts';",
          'const text = "import x from \'../storage/string.ts\'";',
          "export const load = () => import('../providers/local/create-local-provider.ts');",
          "export type Adapter = import('../runtimes/claude/create-claude-adapter.ts').ClaudeAdapter;",
          'const require = createRequire(import.meta.url);',
          "export const sdk = require.resolve('@anthropic-ai/claude-agent-sdk');",
          "export const sqlite = require('better-sqlite3');",
          'export { text };',
        ].join('\n'),
      );
      expect(check(readSourceTree(root, 'src'))).toEqual([
        expect.stringMatching(
          /^src\/engine\/bad\.ts:2 import type '\.\.\/storage\/index\.ts': engine must not import storage/,
        ),
        expect.stringMatching(
          /^src\/engine\/bad\.ts:5 export from '\.\.\/tui\/index\.ts': engine must not import tui/,
        ),
        expect.stringMatching(
          /^src\/engine\/bad\.ts:8 dynamic import '\.\.\/providers\/local\/.*': engine must not import providers\/local/,
        ),
        expect.stringMatching(
          /^src\/engine\/bad\.ts:9 type-position import\(\) '\.\.\/runtimes\/claude\/.*': engine must not import runtimes\/claude/,
        ),
        "src/engine/bad.ts:11 require '@anthropic-ai/claude-agent-sdk': only runtimes/claude may import @anthropic-ai/claude-agent-sdk, not engine",
        "src/engine/bad.ts:12 require 'better-sqlite3': only storage may import better-sqlite3, not engine",
      ]);
    });
  });
});
