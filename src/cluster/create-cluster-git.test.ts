import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { createClusterGit } from './create-cluster-git.ts';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();

function commit(cwd: string, file: string, text: string): string {
  writeFileSync(join(cwd, file), text);
  git(cwd, 'add', file);
  git(cwd, 'commit', '--quiet', '-m', file);
  return git(cwd, 'rev-parse', 'HEAD');
}

describe("createClusterGit's publish: runs start from the shared remote's merges", () => {
  let dir: ReturnType<typeof createTempDir>;
  let leader: string;
  let other: string;
  beforeEach(() => {
    dir = createTempDir();
    const bare = join(dir.path, 'remote.git');
    leader = join(dir.path, 'leader');
    other = join(dir.path, 'other');
    git(dir.path, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(dir.path, 'clone', '--quiet', bare, leader);
    git(leader, 'checkout', '--quiet', '-b', 'main');
    commit(leader, 'README.md', 'hello\n');
    git(leader, 'push', '--quiet', 'origin', 'main');
    git(dir.path, 'clone', '--quiet', bare, other);
  });
  afterEach(() => dir.remove());

  const publish = () =>
    createClusterGit({ repoRoot: leader, remote: 'origin', defaultBranch: 'main' }).publish();

  it("fast-forwards the leader's checked-out default branch to another machine's merge, then publishes it", async () => {
    const merged = commit(other, 'merged.txt', 'merged on another machine\n');
    git(other, 'push', '--quiet', 'origin', 'main');
    expect(await publish()).toBe(merged);
    expect(git(leader, 'rev-parse', 'main')).toBe(merged);
    expect(readFileSync(join(leader, 'merged.txt'), 'utf8')).toBe('merged on another machine\n');
    expect(git(leader, 'status', '--porcelain')).toBe('');
  });

  it('moves a default branch no worktree has checked out by its ref', async () => {
    git(leader, 'checkout', '--quiet', '-b', 'elsewhere');
    const merged = commit(other, 'merged.txt', 'merged\n');
    git(other, 'push', '--quiet', 'origin', 'main');
    expect(await publish()).toBe(merged);
    expect(git(leader, 'rev-parse', 'main')).toBe(merged);
    expect(git(leader, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('elsewhere');
  });

  it('keeps a default branch with commits of its own, and publishes it as it is', async () => {
    commit(other, 'merged.txt', 'merged\n');
    git(other, 'push', '--quiet', 'origin', 'main');
    const own = commit(leader, 'own.txt', 'a human commit on the leader\n');
    expect(await publish()).toBe(own);
    expect(git(leader, 'rev-parse', 'main')).toBe(own);
  });

  it('leaves a checkout whose changed files the merge would overwrite, and publishes from it', async () => {
    const before = git(leader, 'rev-parse', 'main');
    commit(other, 'README.md', 'changed on another machine\n');
    git(other, 'push', '--quiet', 'origin', 'main');
    writeFileSync(join(leader, 'README.md'), 'a human is editing this\n');
    expect(await publish()).toBe(before);
    expect(readFileSync(join(leader, 'README.md'), 'utf8')).toBe('a human is editing this\n');
  });
});
