import { chmod, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHubGit, type FakeGitHubGit } from '../../../demo/fake-github/create-fake-github-git.ts';
import { runGit } from '../../../process/run-command.ts';
import { BranchMovedError, pushPatchBranch } from './push-patch-branch.ts';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Agent',
  GIT_AUTHOR_EMAIL: 'agent@flotilla.invalid',
  GIT_COMMITTER_NAME: 'Agent',
  GIT_COMMITTER_EMAIL: 'agent@flotilla.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};
const author = { name: 'flotilla', email: 'flotilla@users.noreply.github.com' };
const LONG_FILE = `${Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join('\n')}\n`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const remote = await createFakeGitHubGit('main');
  cleanups.push(() => remote.remove());
  await remote.commitFiles(
    'main',
    { 'README.md': '# Base\n', 'docs/long.txt': LONG_FILE, 'old.txt': 'old\n' },
    'base',
  );
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-push-patch-'));
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));
  const work = join(scratch, 'work');
  await runGit(['clone', '--quiet', remote.path, work], { cwd: scratch, env: IDENTITY });
  const git = async (args: string[]) => (await runGit(args, { cwd: work, env: IDENTITY })).stdout;
  return { remote, work, git, mirrorDir: join(scratch, 'mirror.git') };
}

/** What an agent's worktree produces: the diff of one commit on top of main, and that commit's tree. */
async function agentPatch(git: (args: string[]) => Promise<string>, change: () => Promise<void>) {
  await git(['checkout', '--quiet', '-B', 'agent', 'origin/main']);
  await change();
  await git(['add', '-A']);
  await git(['commit', '--quiet', '-m', 'agent work']);
  return {
    patch: await git(['diff', '--binary', '--full-index', 'HEAD~1', 'HEAD']),
    tree: (await git(['rev-parse', 'HEAD^{tree}'])).trim(),
  };
}

async function remoteTree(remote: FakeGitHubGit, branch: string): Promise<string | null> {
  return (await remote.readTree(`refs/heads/${branch}`, false))?.sha ?? null;
}

describe('pushPatchBranch', () => {
  it('pushes exactly the agent’s tree: a mid-file hunk, binary, mode, rename and deletion', async () => {
    const { remote, work, git, mirrorDir } = await setup();
    const { patch, tree } = await agentPatch(git, async () => {
      await writeFile(join(work, 'docs/long.txt'), LONG_FILE.replace('line 20\n', 'line twenty\n'));
      await writeFile(join(work, 'logo.bin'), Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]));
      await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
      await chmod(join(work, 'run.sh'), 0o755);
      await git(['mv', 'README.md', 'READ-ME.md']);
      await unlink(join(work, 'old.txt'));
    });
    const main = await remote.resolveCommit('refs/heads/main');
    const pushed = await pushPatchBranch({
      remote: { url: remote.path },
      mirrorDir,
      defaultBranch: 'main',
      branchName: 'flotilla/7',
      patch,
      commitMessage: 'Implement #7',
      author,
      expectedHeadSHA: null,
    });
    expect(pushed).toMatchObject({ baseSHA: main, previousSHA: null });
    expect(await remote.resolveCommit('refs/heads/flotilla/7')).toBe(pushed.headSHA);
    expect(await remoteTree(remote, 'flotilla/7')).toBe(tree);
    expect(await remote.resolveCommit('refs/heads/main')).toBe(main);
  });

  it('a re-push replaces the branch with one commit on the current main', async () => {
    const { remote, work, git, mirrorDir } = await setup();
    const push = (patch: string, expectedHeadSHA: string | null) =>
      pushPatchBranch({
        remote: { url: remote.path },
        mirrorDir,
        defaultBranch: 'main',
        branchName: 'flotilla/7',
        patch,
        commitMessage: 'Implement #7',
        author,
        expectedHeadSHA,
      });
    const first = await agentPatch(git, () => writeFile(join(work, 'a.txt'), 'a\n'));
    const pushedFirst = await push(first.patch, null);
    const main = await remote.commitFiles('main', { 'other.txt': 'meanwhile\n' }, 'someone merged');
    await git(['fetch', '--quiet', 'origin']);
    const second = await agentPatch(git, () => writeFile(join(work, 'b.txt'), 'b\n'));
    const pushedSecond = await push(second.patch, pushedFirst.headSHA);
    expect(pushedSecond).toMatchObject({ baseSHA: main, previousSHA: pushedFirst.headSHA });
    expect(await remoteTree(remote, 'flotilla/7')).toBe(second.tree);
    expect(pushedSecond.files.map((file) => file.path)).toEqual(['b.txt']);
  });

  it('refuses to overwrite a branch someone else pushed to, and leaves it as they left it', async () => {
    const { remote, work, git, mirrorDir } = await setup();
    const { patch } = await agentPatch(git, () => writeFile(join(work, 'a.txt'), 'a\n'));
    const params = {
      remote: { url: remote.path },
      mirrorDir,
      defaultBranch: 'main',
      branchName: 'flotilla/7',
      patch,
      commitMessage: 'Implement #7',
      author,
    };
    const ours = await pushPatchBranch({ ...params, expectedHeadSHA: null });
    const human = await remote.commitFiles('flotilla/7', { 'fix.txt': 'by hand\n' }, 'human fix');
    const refused = pushPatchBranch({ ...params, expectedHeadSHA: ours.headSHA });
    await expect(refused).rejects.toThrow(BranchMovedError);
    await expect(refused).rejects.toThrow(/flotilla\/7 moved on the remote/);
    expect(await remote.resolveCommit('refs/heads/flotilla/7')).toBe(human);
  });

  it('pushes nothing when the patch does not apply', async () => {
    const { remote, mirrorDir } = await setup();
    const patch = [
      'diff --git a/README.md b/README.md',
      '--- a/README.md',
      '+++ b/README.md',
      '@@ -1 +1 @@',
      '-not the content',
      '+changed',
      '',
    ].join('\n');
    await expect(
      pushPatchBranch({
        remote: { url: remote.path },
        mirrorDir,
        defaultBranch: 'main',
        branchName: 'flotilla/7',
        patch,
        commitMessage: 'Implement #7',
        author,
        expectedHeadSHA: null,
      }),
    ).rejects.toThrow(/does not apply/);
    expect(await remote.resolveCommit('refs/heads/flotilla/7')).toBeNull();
  });
});
