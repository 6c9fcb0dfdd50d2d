import { describe, expect, it } from 'vitest';
import { buildDynamicWord, buildStaticWord } from './command-word.ts';
import {
  findProtectedName,
  findProtectedPathInArgument,
  findProtectedWriteTarget,
} from './protected-paths.ts';

const glob = (value: string) => ({ ...buildStaticWord(value), glob: true });

describe('findProtectedWriteTarget', () => {
  it.each([
    '.git/hooks/pre-commit',
    './.git/config',
    '../other/.git/hooks/x',
    '.git',
    '~/.gitconfig',
    '/home/u/.config/git/config',
    '.npmrc',
    'sub/.yarnrc.yml',
    '.claude/settings.json',
    '.flotilla/config.json',
    '/root/.ssh/config',
    '.bashrc',
  ])('refuses %j', (path) => {
    expect(findProtectedWriteTarget(buildStaticWord(path))).toMatch(/protected path/);
  });

  it.each(['src/a.ts', '.gitignore', '.github/workflows/ci.yml', '/dev/null', 'out/.gitkeep', 'notes.git'])(
    'accepts %j',
    (path) => {
      expect(findProtectedWriteTarget(buildStaticWord(path))).toBeNull();
    },
  );

  it('refuses globs that could match a protected name, but not leading-star globs', () => {
    expect(findProtectedWriteTarget(glob('.gi?/hooks/x'))).toMatch(/protected/);
    expect(findProtectedWriteTarget(glob('.[g]it/config'))).toMatch(/protected/);
    expect(findProtectedWriteTarget(glob('src/*.ts'))).toBeNull();
  });

  // macOS and Windows fold case: `.GIT/hooks` is `.git/hooks` there.
  it.each([
    '../../.GIT/hooks/pre-commit',
    '.Git/config',
    '.Claude/settings.json',
    '.NPMRC',
    'home/.Config/GIT/config',
    '.FLOTILLA/config.json',
  ])('refuses the case variant %j', (path) => {
    expect(findProtectedWriteTarget(buildStaticWord(path))).toMatch(/protected path/);
  });

  it('refuses globs that could match a case variant', () => {
    expect(findProtectedWriteTarget(glob('.GI?/hooks/x'))).toMatch(/protected/);
    expect(findProtectedWriteTarget(glob('.[C]laude/settings.json'))).toMatch(/protected/);
  });

  it('names the protected part of a relative path in any case', () => {
    expect(findProtectedName('src/.Claude/settings.local.json')).toBe('.Claude');
    expect(findProtectedName('a/.CONFIG/Git/x')).toBe('.CONFIG/Git');
    expect(findProtectedName('src/github/a.ts')).toBeNull();
  });

  it('refuses targets computed at run time', () => {
    expect(findProtectedWriteTarget(buildDynamicWord())).toMatch(/computed at run time/);
  });

  it('checks the value part of --option=value arguments', () => {
    expect(findProtectedPathInArgument(buildStaticWord('--target-directory=.git/hooks'))).toMatch(
      /protected/,
    );
    expect(findProtectedPathInArgument(buildStaticWord('--verbose'))).toBeNull();
  });
});
