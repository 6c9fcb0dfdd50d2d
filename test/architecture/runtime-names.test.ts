import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIME_REGISTRY } from '../../src/runtimes/registry.ts';
import { findNameLiterals, stringLiterals } from './find-name-literals.ts';

/**
 * Adding a runtime is its folder plus one line in src/runtimes/registry.ts (issue #27): no production file
 * elsewhere in src/ may hold a runtime's name as a whole string literal. Providers' names: provider-names.test.ts.
 */
const ROOT = join(import.meta.dirname, '../..');
const NAMES = new Set(RUNTIME_REGISTRY.map((runtime) => runtime.name));

/**
 * Files that still name a runtime, each with why. Shrink it; never grow it without a reason beside the entry.
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {};

describe('runtime names live in their folder and the registry only', () => {
  // Domain records a scripted run's name (SCRIPTED_RUNTIME): that constant is the one literal allowed.
  const offenders = findNameLiterals(
    ROOT,
    NAMES,
    (file) =>
      file.startsWith('src/runtimes/') ||
      Object.hasOwn(EXCEPTIONS, file) ||
      file === 'src/domain/agent-run.ts',
  );

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
