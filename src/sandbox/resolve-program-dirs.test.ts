import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { installPrefixOf, resolveProgramDirs } from './resolve-program-dirs.ts';

describe('installPrefixOf', () => {
  it('is the package of a node_modules binary, the prefix of a bin/ binary, else the directory', () => {
    expect(installPrefixOf('/h/p/node_modules/@anthropic-ai/claude-agent-sdk/cli.js')).toBe(
      '/h/p/node_modules/@anthropic-ai/claude-agent-sdk',
    );
    expect(installPrefixOf('/h/.npm/lib/node_modules/codex/bin/codex.js')).toBe(
      '/h/.npm/lib/node_modules/codex',
    );
    expect(installPrefixOf('/h/.nvm/versions/node/v20/bin/node')).toBe('/h/.nvm/versions/node/v20');
    expect(installPrefixOf('/opt/tool/tool')).toBe('/opt/tool');
  });
});

describe('resolveProgramDirs', () => {
  it('finds programs on PATH, follows symlinks, and never re-exposes a hidden home whole', () => {
    const dir = createTempDir('flotilla-programs-');
    try {
      const home = join(dir.path, 'home');
      mkdirSync(join(home, 'bin'), { recursive: true });
      mkdirSync(join(home, '.local', 'share', 'tool', 'v1'), { recursive: true });
      mkdirSync(join(home, '.local', 'bin'), { recursive: true });
      writeFileSync(join(home, 'bin', 'mine'), '#!/bin/sh\n', { mode: 0o755 });
      writeFileSync(join(home, '.local', 'share', 'tool', 'v1', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
      symlinkSync(join(home, '.local', 'share', 'tool', 'v1', 'tool'), join(home, '.local', 'bin', 'tool'));
      const path = `${join(home, 'bin')}:${join(home, '.local', 'bin')}`;
      expect(resolveProgramDirs(['mine', 'tool'], path, [home])).toEqual([
        join(home, 'bin'),
        join(home, '.local', 'share', 'tool', 'v1'),
        join(home, '.local', 'bin'),
      ]);
    } finally {
      dir.remove();
    }
  });

  it('refuses a program it cannot find', () => {
    expect(() => resolveProgramDirs(['no-such-program-x'], '/usr/bin', [])).toThrow(
      /program "no-such-program-x" is not on the sandboxed process's PATH/,
    );
    expect(() => resolveProgramDirs(['./relative'], '/usr/bin', [])).toThrow(/absolute path/);
  });
});
