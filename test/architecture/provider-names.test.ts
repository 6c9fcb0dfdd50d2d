import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDER_REGISTRY } from '../../src/providers/registry.ts';
import { findNameLiterals, stringLiterals } from './find-name-literals.ts';

/**
 * Adding a provider is its folder plus one line in src/providers/registry.ts (issue #27): no production file
 * elsewhere in src/ may hold a provider's name (`local`, `github`) as a whole string literal. Only whole
 * literals count, so the common word "local" in a sentence ('the local tracker') or a longer string
 * (`localhost`) is no provider's name; a literal 'local' meaning something else would need an entry below.
 */
const ROOT = join(import.meta.dirname, '../..');
const NAMES = new Set(PROVIDER_REGISTRY.map((provider) => provider.name));

/**
 * Files that still name a provider, each with why. Shrink it; never grow it without a reason beside the entry.
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  // `flotilla demo --provider github` plays against the built-in fake GitHub: its own setup per provider.
  'src/app/demo/demo-providers.ts': 'the providers the demo offers',
  'src/app/demo/run-demo.ts': 'the github demo starts the fake GitHub',
  'src/app/demo/start-demo-github.ts': 'the demo config written for the fake GitHub',
  // The `flotilla github` command group is the front of the label-setup capability, named after GitHub.
  'src/cli/commands/github-command.ts': 'the `flotilla github` command group',
};

describe('provider names live in their folder and the registry only', () => {
  // src/providers/: each provider's folder, the registry, and the in-memory provider (no registry line).
  const offenders = findNameLiterals(
    ROOT,
    NAMES,
    (file) => file.startsWith('src/providers/') || Object.hasOwn(EXCEPTIONS, file),
  );

  it('knows the providers by the registry', () => {
    expect([...NAMES]).toEqual(['local', 'github']);
  });

  it('no production file outside src/providers/ names a provider (but the listed exceptions)', () => {
    expect(offenders).toEqual([]);
  });

  it('every exception still names a provider (an exception nothing needs is removed)', () => {
    const stale = Object.keys(EXCEPTIONS).filter(
      (file) => !stringLiterals(readFileSync(join(ROOT, file), 'utf8')).some((text) => NAMES.has(text)),
    );
    expect(stale).toEqual([]);
  });

  it('sees a name in a whole literal only: not in a comment, a sentence or a longer string', () => {
    expect(
      stringLiterals(
        "// 'github'\nconst a = 'local'; const b = `github`; const c = 'the local tracker'; const d = 'localhost';",
      ).filter((text) => NAMES.has(text)),
    ).toEqual(['local', 'github']);
  });
});
