import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RUNTIME_REGISTRY } from '../../src/runtimes/registry.ts';

/**
 * Adding a runtime is its folder plus one line in src/runtimes/registry.ts (issue #27): no production file
 * elsewhere in src/ may hold a runtime's name as a whole string literal. Providers' names: provider-names.test.ts.
 */
const ROOT = join(import.meta.dirname, '../..');
const NAMES = new Set(RUNTIME_REGISTRY.map((runtime) => runtime.name));

/**
 * Files that still name a runtime, each with why. Shrink it; never grow it without a reason beside the entry.
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  // Doctor's agent files and Claude credentials (runtimes named by name get their line from the registry).
  'src/cli/commands/doctor-command-checks.ts': 'agent files and Claude credentials',
  'src/app/find-model-credential.ts': 'the Claude credential variables',
  'src/cli/commands/init-command-scaffold.ts': 'init writes claude or scripted roles',
  'src/app/load-configured-scenario.ts': 'which roles are scripted',
  // The scripted model server's default model name and side replies: a word, not the runtime.
  'src/model-server/build-codex-server-config.ts': "the scripted server's model name",
  'src/model-server/build-side-reply.ts': 'the smallest string a schema accepts',
};

function stringLiterals(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'test-support' || entry.name === 'testing' ? [] : productionFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('runtime names live in their folder and the registry only', () => {
  const offenders = productionFiles(join(ROOT, 'src')).flatMap((path) => {
    const file = relative(ROOT, path);
    if (file.startsWith('src/runtimes/') || Object.hasOwn(EXCEPTIONS, file)) return [];
    // Domain records a scripted run's name (SCRIPTED_RUNTIME): that constant is the one literal allowed.
    if (file === 'src/domain/agent-run.ts') return [];
    const named = stringLiterals(readFileSync(path, 'utf8')).filter((text) => NAMES.has(text));
    return named.length === 0
      ? []
      : [`${file}: ${[...new Set(named)].map((text) => `'${text}'`).join(', ')}`];
  });

  it('no production file outside src/runtimes/ names a runtime (but the listed exceptions)', () => {
    expect(offenders).toEqual([]);
  });

  it('every exception still names a runtime (an exception nothing needs is removed)', () => {
    const stale = Object.keys(EXCEPTIONS).filter(
      (file) => !stringLiterals(readFileSync(join(ROOT, file), 'utf8')).some((text) => NAMES.has(text)),
    );
    expect(stale).toEqual([]);
  });

  it('sees a name in a literal, and not in a comment or a longer string', () => {
    expect(stringLiterals("// 'codex'\nconst a = 'claude'; const b = `cli`; const c = 'claude-x';")).toEqual([
      'claude',
      'cli',
      'claude-x',
    ]);
  });
});
