import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../../test/support/cli/with-local-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { buildAddFilePatch } from '../../runtimes/scripted/build-scripted-results.ts';
import { runFlotilla } from '../support/run-flotilla.ts';

let repo: TempGitRepo;
const flotilla = (args: string[]) => runFlotilla(repo.root, args);

/** A patch changing README.md's content, made with git in the repo and then undone there. */
async function readmePatch(content: string): Promise<string> {
  await repo.write({ 'README.md': content });
  const patch = await repo.git(['diff', '--binary']);
  await repo.git(['checkout', '--', 'README.md']);
  return patch;
}

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', {
    'README.md': '# sample\n',
    '.gitignore': '.flotilla/\n.worktrees/\n',
    // The checks fail on a revision that adds broken.txt.
    'flotilla.config.json': '{ "defaultBranch": "main", "checks": { "command": "test ! -e broken.txt" } }\n',
  });
});
afterEach(() => repo.cleanup());

describe('flotilla queue and flotilla merge --queue', { timeout: 120_000 }, () => {
  it('lists the queue, then merges it one at a time, sending back a conflict and red checks', async () => {
    // Five approved items, all made on the same default branch head (their checks passed there).
    const items = await withLocalProvider(repo.root, { checksCommand: null }, async (provider) => [
      await createItemWithRevision(provider, buildAddFilePatch('a.txt', 'a\n'), 'approved'),
      await createItemWithRevision(provider, buildAddFilePatch('b.txt', 'b\n'), 'approved'),
      await createItemWithRevision(provider, await readmePatch('# sample, by C\n'), 'approved'),
      await createItemWithRevision(provider, await readmePatch('# sample, by D\n'), 'approved'),
      await createItemWithRevision(provider, buildAddFilePatch('broken.txt', 'x\n'), 'approved'),
    ]);
    const ids = items.map((item) => item.id);

    const listed = await flotilla(['queue', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const queue = JSON.parse(listed.stdout);
    expect(queue.automatic).toBe(false);
    expect(queue.entries.map((entry: { workItemID: string }) => entry.workItemID)).toEqual(ids);
    expect(queue.head).toEqual({
      workItemID: ids[0],
      revisionID: items[0]!.revisionID,
      state: 'ready',
      blockedBy: null,
    });

    const main = (await repo.git(['rev-parse', 'main'])).trim();
    const result = await flotilla(['merge', '--queue', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(
      summary.steps.map((step: { workItemID: string; outcome: string }) => [step.workItemID, step.outcome]),
    ).toEqual([
      [ids[0], 'merged'],
      [ids[1], 'rebased'],
      [ids[1], 'merged'],
      [ids[2], 'rebased'],
      [ids[2], 'merged'],
      [ids[3], 'conflict'],
      [ids[4], 'rebased'],
      [ids[4], 'checks-failed'],
    ]);
    expect(summary.merged).toEqual(ids.slice(0, 3));

    // Only fast-forwards: main's history is the three merged heads, each on the one before.
    const history = (await repo.git(['rev-list', '--first-parent', '--reverse', `${main}..main`]))
      .trim()
      .split('\n');
    const mergedHeads = summary.steps
      .filter((step: { outcome: string }) => step.outcome === 'merged')
      .map((step: { headSHA: string }) => step.headSHA);
    expect(history).toEqual(mergedHeads);
    expect(await repo.git(['show', 'main:README.md'])).toBe('# sample, by C\n');

    await withLocalProvider(repo.root, { checksCommand: null }, ({ tracker }) => {
      expect(ids.map((id) => tracker.workItems.getWorkItem(id)?.status)).toEqual([
        'closed',
        'closed',
        'closed',
        'pending',
        'pending',
      ]);
      const comments = (id: string) =>
        tracker.workItems
          .getWorkItemComments(id)
          .map((comment) => comment.body)
          .join('\n');
      expect(comments(ids[3]!)).toMatch(
        /conflicts[\s\S]*- `README.md`[\s\S]*<<<<<<< main\n# sample, by C\n=======\n# sample, by D\n>>>>>>> flotilla\//,
      );
      expect(comments(ids[4]!)).toContain('The checks failed on revision');
    });
  });

  it('refuses an id or a merge method with --queue', async () => {
    const result = await flotilla(['merge', '--queue', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--queue takes no id');
  });
});
