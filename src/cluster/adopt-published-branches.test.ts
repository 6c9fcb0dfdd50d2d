import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { adoptPublishedBranches } from './adopt-published-branches.ts';
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

describe('adoptPublishedBranches: a controller taking over in another clone', () => {
  let dir: ReturnType<typeof createTempDir>;
  let a: string;
  let b: string;
  beforeEach(() => {
    dir = createTempDir();
    const bare = join(dir.path, 'remote.git');
    a = join(dir.path, 'a');
    b = join(dir.path, 'b');
    git(dir.path, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(dir.path, 'clone', '--quiet', bare, a);
    git(a, 'checkout', '--quiet', '-b', 'main');
    commit(a, 'README.md', 'hello\n');
    git(a, 'push', '--quiet', 'origin', 'main');
    git(dir.path, 'clone', '--quiet', bare, b);
  });
  afterEach(() => dir.remove());

  const adopt = () => adoptPublishedBranches({ repoRoot: b, remote: 'origin', defaultBranch: 'main' });

  it("brings the checked-out default branch and the revision branches up to the old leader's", async () => {
    expect(await adopt()).toEqual([]);
    // The old leader merged a revision into its main and has another revision open, then published.
    const merged = commit(a, 'merged.txt', 'merged\n');
    git(a, 'branch', 'flotilla/2', 'HEAD');
    git(a, 'checkout', '--quiet', '-b', 'flotilla/3');
    const open = commit(a, 'open.txt', 'open\n');
    git(a, 'checkout', '--quiet', 'main');
    await createClusterGit({ repoRoot: a, remote: 'origin', defaultBranch: 'main' }).publish();

    expect(await adopt()).toEqual([
      { branch: 'flotilla/2', outcome: 'created' },
      { branch: 'flotilla/3', outcome: 'created' },
      { branch: 'main', outcome: 'advanced' },
    ]);
    expect(git(b, 'rev-parse', 'main', 'flotilla/3')).toBe(`${merged}\n${open}`);
    // The checkout moved with its branch: nothing looks changed.
    expect(git(b, 'status', '--porcelain')).toBe('');
    expect(await adopt()).toEqual([]);
  });

  it('keeps a branch with commits the published one lacks, and a checkout with changes', async () => {
    commit(a, 'theirs.txt', 'theirs\n');
    git(a, 'branch', 'flotilla/2', 'HEAD');
    await createClusterGit({ repoRoot: a, remote: 'origin', defaultBranch: 'main' }).publish();
    git(b, 'checkout', '--quiet', '-b', 'flotilla/2');
    const ours = commit(b, 'ours.txt', 'ours\n');
    git(b, 'checkout', '--quiet', 'main');
    writeFileSync(join(b, 'README.md'), 'edited\n');

    const adopted = await adopt();
    expect(adopted).toEqual([
      { branch: 'flotilla/2', outcome: 'kept', reason: expect.stringContaining('diverged') },
      { branch: 'main', outcome: 'kept', reason: expect.stringContaining('uncommitted changes') },
    ]);
    expect(git(b, 'rev-parse', 'flotilla/2')).toBe(ours);
  });
});
