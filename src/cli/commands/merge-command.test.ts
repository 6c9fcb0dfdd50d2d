import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../../test/support/cli/with-local-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { buildAddFilePatch } from '../../runtimes/scripted/build-scripted-results.ts';
import { runFlotilla } from '../support/run-flotilla.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

let repo: TempGitRepo;
const flotilla = (args: string[]) => runFlotilla(repo.root, args);
const rev = async (ref: string) => (await repo.git(['rev-parse', ref])).trim();

/** A work item with a revision made by the local provider from `patch`, moved to `status`. */
async function itemWithRevision(
  patch: string,
  status = 'approved',
): Promise<{ id: string; headSHA: string }> {
  const { id, headSHA } = await withLocalProvider(repo.root, { checksCommand: null }, (provider) =>
    createItemWithRevision(provider, patch, status as 'approved'),
  );
  return { id, headSHA };
}

/** A patch changing README.md's content, made with git in the repo and then undone there. */
async function readmePatch(content: string): Promise<string> {
  await repo.write({ 'README.md': content });
  const patch = await repo.git(['diff', '--binary']);
  await repo.git(['checkout', '--', 'README.md']);
  return patch;
}

async function showItem(id: string) {
  return JSON.parse((await flotilla(['work', 'show', id, '--json'])).stdout);
}

beforeEach(async () => {
  repo = await createTempGitRepo();
  // Named explicitly: without it the default branch is detected from the checkout, which these tests switch.
  await repo.commit('initial', {
    'README.md': '# sample\n',
    '.gitignore': '.flotilla/\n.worktrees/\n',
    'flotilla.config.json': '{ "defaultBranch": "main" }\n',
  });
});
afterEach(() => repo.cleanup());

describe('flotilla merge', { timeout: 60_000 }, () => {
  it('fast-forwards a checked-out, clean default branch and closes the item', async () => {
    const { id, headSHA } = await itemWithRevision(
      buildAddFilePatch('src/feature.ts', 'export const f = 1;\n'),
    );
    const before = await rev('main');
    const result = await flotilla(['merge', id, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({
      workItemID: id,
      revisionID: '2',
      branch: `flotilla/${id}`,
      defaultBranch: 'main',
      method: 'default',
      strategy: 'fast-forward',
      previousSHA: before,
      mergedSHA: headSHA,
      updatedWorktree: repo.root,
      deletedBranch: false,
    });
    expect(await rev('main')).toBe(headSHA);
    expect(await readFile(join(repo.root, 'src/feature.ts'), 'utf8')).toBe('export const f = 1;\n');
    expect(await repo.git(['status', '--porcelain'])).toBe('');
    expect(await showItem(id)).toMatchObject({ status: 'closed', linkedRevision: null });
  });

  it("writes a merge commit without touching the user's other checked-out branch and its dirty tree", async () => {
    const { id, headSHA } = await itemWithRevision(
      buildAddFilePatch('src/feature.ts', 'export const f = 1;\n'),
    );
    const mainMoved = await repo.commit('upstream work', { 'other.txt': 'x\n' });
    await repo.git(['checkout', '--quiet', '-b', 'wip']);
    await repo.write({ 'README.md': '# my local edit\n', 'scratch.txt': 'untracked\n' });
    const wipHead = await rev('HEAD');

    const result = await flotilla(['merge', `#${id}`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`merged revision r2 (flotilla/${id}) into main: merge-commit`);
    const merged = await rev('main');
    expect((await repo.git(['rev-list', '--parents', '-n', '1', merged])).trim()).toBe(
      `${merged} ${mainMoved} ${headSHA}`,
    );
    expect(await repo.git(['show', `${merged}:src/feature.ts`])).toBe('export const f = 1;\n');
    expect(await repo.git(['show', `${merged}:other.txt`])).toBe('x\n');
    // The user's checkout: same branch, same head, same dirty files, nothing new.
    expect(await rev('HEAD')).toBe(wipHead);
    expect((await repo.git(['symbolic-ref', '--short', 'HEAD'])).trim()).toBe('wip');
    expect(await readFile(join(repo.root, 'README.md'), 'utf8')).toBe('# my local edit\n');
    expect(await repo.git(['status', '--porcelain'])).toBe(' M README.md\n?? scratch.txt\n');
    expect(await showItem(id)).toMatchObject({ status: 'closed' });
  });

  it('refuses an item that is not approved, changing nothing', async () => {
    const { id } = await itemWithRevision(buildAddFilePatch('src/feature.ts', 'x\n'), 'review');
    const before = await rev('main');
    const result = await flotilla(['merge', id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`#${id} is review, not approved`);
    expect(result.stderr).toContain(`flotilla review ${id} --approve`);
    expect(await rev('main')).toBe(before);
    expect(await showItem(id)).toMatchObject({ status: 'review', revision: { state: 'open' } });
  });

  it('reports a conflict and changes nothing', async () => {
    const { id } = await itemWithRevision(await readmePatch('# from the revision\n'));
    const mainMoved = await repo.commit('conflicting upstream', { 'README.md': '# from main\n' });
    const result = await flotilla(['merge', id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`flotilla/${id} conflicts with main; nothing was changed`);
    expect(result.stderr).toContain('README.md');
    expect(await rev('main')).toBe(mainMoved);
    expect(await repo.git(['status', '--porcelain'])).toBe('');
    expect(await readFile(join(repo.root, 'README.md'), 'utf8')).toBe('# from main\n');
    expect(await showItem(id)).toMatchObject({ status: 'approved', revision: { state: 'open' } });
  });

  it('refuses when the default branch is checked out with uncommitted changes, leaving them untouched', async () => {
    const { id } = await itemWithRevision(buildAddFilePatch('src/feature.ts', 'x\n'));
    const before = await rev('main');
    await writeFile(join(repo.root, 'README.md'), '# unsaved work\n');
    const result = await flotilla(['merge', id]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('main is checked out in');
    expect(result.stderr).toContain('uncommitted changes');
    expect(await rev('main')).toBe(before);
    expect(await readFile(join(repo.root, 'README.md'), 'utf8')).toBe('# unsaved work\n');
    expect(await repo.git(['status', '--porcelain'])).toBe(' M README.md\n');
    expect(await showItem(id)).toMatchObject({ status: 'approved', revision: { state: 'open' } });
  });

  it('exits 2 on a malformed id and 1 on an unknown one', async () => {
    expect((await flotilla(['merge', 'abc'])).code).toBe(2);
    expect((await flotilla(['merge'])).code).toBe(2);
    const unknown = await flotilla(['merge', '42']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('work item #42 does not exist');
  });
});

describe('flotilla merge --squash|--rebase|--merge, --delete-branch, already merged, branches prune', {
  timeout: 60_000,
}, () => {
  const cli = (...args: string[]) => runFlotillaInProcess(repo.root, args);
  const parentsOf = async (sha: string) =>
    (await repo.git(['rev-list', '--parents', '-n', '1', sha])).trim().split(' ').slice(1);

  it('squashes into one commit titled after the item, deletes the branch, and says an item is already merged', async () => {
    const { id, headSHA } = await itemWithRevision(
      buildAddFilePatch('src/feature.ts', 'export const f = 1;\n'),
    );
    const upstream = await repo.commit('upstream work', { 'other.txt': 'x\n' });
    const squashed = await cli('merge', id, '--squash', '--delete-branch', '--json');
    expect(squashed).toMatchObject({ code: 0, stderr: '' });
    const summary = JSON.parse(squashed.stdout);
    expect(summary).toMatchObject({
      method: 'squash',
      strategy: 'squash',
      previousSHA: upstream,
      deletedBranch: true,
    });
    expect(await rev('main')).toBe(summary.mergedSHA);
    expect(await parentsOf(summary.mergedSHA)).toEqual([upstream]);
    expect(await repo.git(['log', '-1', '--format=%s', 'main'])).toBe(`Add a feature (#${id})\n`);
    expect(await repo.git(['show', 'main:src/feature.ts'])).toBe('export const f = 1;\n');
    expect(await repo.git(['branch', '--list', `flotilla/${id}`])).toBe('');
    expect(await showItem(id)).toMatchObject({ status: 'closed' });

    // §11: merging again says it is merged, instead of "closed, not approved … approve it yourself".
    const again = await cli('merge', id);
    expect(again).toEqual({
      code: 0,
      stdout: `#${id} is already merged (revision r2, flotilla/${id} at ${headSHA.slice(0, 12)}); nothing to do\n`,
      stderr: '',
    });
    expect(JSON.parse((await cli('merge', id, '--json')).stdout)).toMatchObject({
      strategy: 'already-merged',
      mergedSHA: summary.mergedSHA,
    });
    await cli('work', 'create', '--title', 'Dropped');
    await cli('work', 'close', '3');
    expect(await cli('merge', '3')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('#3 is closed and none of its revisions was merged'),
    });
  });

  it('rebases (the commit replayed with its author and message) or writes a merge commit even when it could fast-forward', async () => {
    const first = await itemWithRevision(buildAddFilePatch('src/a.ts', 'a\n'));
    const second = await itemWithRevision(buildAddFilePatch('src/b.ts', 'b\n'));
    const base = await rev('main');
    const rebased = JSON.parse((await cli('merge', first.id, '--rebase', '--json')).stdout);
    // On top of main already: a rebase is a fast-forward.
    expect(rebased).toMatchObject({
      strategy: 'fast-forward',
      mergedSHA: first.headSHA,
      deletedBranch: false,
    });
    const replayed = JSON.parse((await cli('merge', second.id, '--rebase', '--json')).stdout);
    expect(replayed).toMatchObject({ method: 'rebase', strategy: 'rebase', previousSHA: first.headSHA });
    expect(await parentsOf(replayed.mergedSHA)).toEqual([first.headSHA]);
    const format = '--format=%an <%ae>%n%B';
    expect(await repo.git(['show', '-s', format, replayed.mergedSHA])).toBe(
      await repo.git(['show', '-s', format, second.headSHA]),
    );
    expect(await repo.git(['branch', '--list', `flotilla/${second.id}`])).not.toBe('');

    const third = await itemWithRevision(buildAddFilePatch('src/c.ts', 'c\n'));
    const merged = JSON.parse((await cli('merge', third.id, '--merge', '--json')).stdout);
    expect(merged).toMatchObject({ method: 'merge', strategy: 'merge-commit' });
    expect(await parentsOf(merged.mergedSHA)).toEqual([replayed.mergedSHA, third.headSHA]);
    expect(base).not.toBe(merged.mergedSHA);
    expect((await cli('merge', '1', '--squash', '--rebase')).code).toBe(2);
  });

  it('branches prune deletes merged flotilla/* branches only (squashed ones included), keeping open and checked-out ones', async () => {
    const ffMerged = await itemWithRevision(buildAddFilePatch('src/a.ts', 'a\n'));
    await cli('merge', ffMerged.id);
    const squashed = await itemWithRevision(buildAddFilePatch('src/b.ts', 'b\n'));
    await cli('merge', squashed.id, '--squash');
    const open = await itemWithRevision(buildAddFilePatch('src/c.ts', 'c\n'));
    const checkedOut = await itemWithRevision(buildAddFilePatch('src/d.ts', 'd\n'));
    await cli('merge', checkedOut.id, '--squash');
    await repo.git([
      'worktree',
      'add',
      '--quiet',
      join(repo.root, '.worktrees', 'look'),
      `flotilla/${checkedOut.id}`,
    ]);

    const dryRun = await cli('branches', 'prune', '--dry-run');
    expect(dryRun.stdout).toContain(`would delete flotilla/${ffMerged.id}`);
    expect(dryRun.stdout).toContain(`would delete flotilla/${squashed.id}`);
    expect(dryRun.stdout).not.toContain(`flotilla/${open.id} `);
    const listBranches = async () =>
      (await repo.git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/flotilla/']))
        .trim()
        .split('\n');
    expect(await listBranches()).toHaveLength(4);

    const pruned = JSON.parse((await cli('branches', 'prune', '--json')).stdout);
    expect(pruned).toEqual(
      [
        {
          branch: `flotilla/${ffMerged.id}`,
          headSHA: ffMerged.headSHA,
          reason: 'merged',
          outcome: 'deleted',
        },
        {
          branch: `flotilla/${squashed.id}`,
          headSHA: squashed.headSHA,
          reason: 'merged',
          outcome: 'deleted',
        },
        {
          branch: `flotilla/${checkedOut.id}`,
          headSHA: checkedOut.headSHA,
          reason: 'merged',
          outcome: 'checked-out',
        },
      ].sort((a, b) => a.branch.localeCompare(b.branch)),
    );
    expect((await listBranches()).sort()).toEqual(
      [`flotilla/${checkedOut.id}`, `flotilla/${open.id}`].sort(),
    );
    expect((await cli('branches', 'prune')).stdout).toContain(
      `kept flotilla/${checkedOut.id}: it is checked out`,
    );
  });
});
