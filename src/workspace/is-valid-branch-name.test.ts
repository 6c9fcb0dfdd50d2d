import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isValidBranchName } from './is-valid-branch-name.ts';

/** What git itself says (the function replaces a `git check-ref-format --branch` call per worktree). */
function gitAccepts(name: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const NAMES = [
  'flotilla/12',
  'agent/flotilla/1',
  'agent/reviewer/5b0c-uuid',
  'a.b',
  'feature_x-1',
  'ünïcode',
  '',
  '.',
  'HEAD',
  '-x',
  '../escape',
  'a..b',
  'has space',
  'tab\there',
  'a~1',
  'a^b',
  'a:b',
  'a?b',
  'a*b',
  'a[b',
  'a\\b',
  'a@{b',
  'a//b',
  'a/',
  'a.',
  '/a',
  'a/.hidden',
  '.hidden',
  'x.lock',
  'a/x.lock/b',
  'a/b.lock',
];

describe('isValidBranchName', () => {
  it.each(NAMES)('agrees with git check-ref-format --branch on %j', (name) => {
    expect(isValidBranchName(name)).toBe(gitAccepts(name));
  });

  it('refuses "@", which git expands to the current branch rather than naming one', () => {
    expect(isValidBranchName('@')).toBe(false);
  });
});
