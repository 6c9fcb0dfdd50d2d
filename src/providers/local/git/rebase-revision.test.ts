import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../../test/support/shared/create-temp-git-repo.ts';
import { STACK_BASE_TRAILER } from '../../shared/create-branch-from-patch.ts';
import { rebaseRevision } from './rebase-revision.ts';

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;
const committer = { name: 'Flotilla', email: 'flotilla@localhost' };

// Issue #30 §5: the merge queue replays a revision's change onto the default branch's head.
describe('rebaseRevision', () => {
  let repo: TempGitRepo;
  let base: string;

  beforeEach(async () => {
    repo = await createTempGitRepo();
    base = await repo.commit('base', { 'notes.txt': text(LINES), 'other.txt': 'x\n' });
  });
  afterEach(() => repo.cleanup());

  /** A revision branch from `from` with one commit writing `files`. */
  async function branch(name: string, from: string, files: Record<string, string>, message = name) {
    await repo.git(['checkout', '--quiet', '-b', name, from]);
    const head = await repo.commit(message, files);
    await repo.git(['checkout', '--quiet', 'main']);
    return head;
  }
  const rebase = (branchName: string, headSHA: string) =>
    rebaseRevision({ repoRoot: repo.root, defaultBranch: 'main', branchName, headSHA, committer });
  const show = async (ref: string, path: string) => repo.git(['show', `${ref}:${path}`]);

  it('leaves a revision that already sits on the default branch alone', async () => {
    const head = await branch('flotilla/1', base, { 'a.txt': 'a\n' });
    expect(await rebase('flotilla/1', head)).toEqual({ outcome: 'up-to-date', baseSHA: base });
    expect((await repo.git(['rev-parse', 'flotilla/1'])).trim()).toBe(head);
  });

  it('replays a change the default branch only shifted: a new head on main, the approval kept', async () => {
    const head = await branch('flotilla/1', base, { 'notes.txt': text(LINES.with(24, 'line 25 changed')) });
    const main = await repo.commit('lines on top', { 'notes.txt': text(['top 1', 'top 2', ...LINES]) });
    const result = await rebase('flotilla/1', head);
    expect(result).toMatchObject({ outcome: 'rebased', baseSHA: main, changedApproved: false });
    if (result.outcome !== 'rebased') throw new Error('unreachable');
    expect((await repo.git(['rev-parse', 'flotilla/1'])).trim()).toBe(result.headSHA);
    expect((await repo.git(['rev-parse', `${result.headSHA}^1`])).trim()).toBe(main);
    expect(await show('flotilla/1', 'notes.txt')).toBe(
      text(['top 1', 'top 2', ...LINES.with(24, 'line 25 changed')]),
    );
    expect(result.patch).toContain('+line 25 changed');
    const author = (sha: string) => repo.git(['log', '-1', '--format=%an <%ae> %aI', sha]);
    expect(await author(result.headSHA)).toBe(await author(head));
    expect((await repo.git(['log', '-1', '--format=%cn', result.headSHA])).trim()).toBe('Flotilla');
  });

  it('says when the rebase changed what was approved (its context moved under it)', async () => {
    const head = await branch('flotilla/1', base, { 'notes.txt': text(LINES.with(10, 'line 11 changed')) });
    await repo.commit('near it', { 'notes.txt': text(LINES.with(12, 'line 13 other')) });
    const result = await rebase('flotilla/1', head);
    expect(result).toMatchObject({ outcome: 'rebased', changedApproved: true });
  });

  it('returns the conflicting files and hunks, and writes nothing', async () => {
    const head = await branch('flotilla/1', base, { 'notes.txt': text(LINES.with(4, 'mine')) });
    const main = await repo.commit('theirs', { 'notes.txt': text(LINES.with(4, 'theirs')) });
    const result = await rebase('flotilla/1', head);
    expect(result.outcome).toBe('conflict');
    if (result.outcome !== 'conflict') throw new Error('unreachable');
    expect(result.baseSHA).toBe(main);
    expect(result.files).toEqual([
      { path: 'notes.txt', hunks: ['<<<<<<< main\ntheirs\n=======\nmine\n>>>>>>> flotilla/1\n'] },
    ]);
    expect((await repo.git(['rev-parse', 'flotilla/1'])).trim()).toBe(head);
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(main);
  });

  it("replays a stacked revision's own change once what it built on is merged, without its trailer", async () => {
    const a = await branch('flotilla/1', base, { 'a.txt': 'a\n' });
    const b = await branch('flotilla/2', a, { 'b.txt': 'b\n' }, `B\n\n${STACK_BASE_TRAILER}: ${a}`);
    // A lands as a different commit (rebased by the queue, or squashed).
    await repo.commit('A, squashed', { 'a.txt': 'a\n' });
    const result = await rebase('flotilla/2', b);
    expect(result).toMatchObject({ outcome: 'rebased', changedApproved: false });
    if (result.outcome !== 'rebased') throw new Error('unreachable');
    expect((await repo.git(['diff', '--name-only', `${result.headSHA}^1`, result.headSHA])).trim()).toBe(
      'b.txt',
    );
    expect(await repo.git(['log', '-1', '--format=%B', result.headSHA])).not.toContain(STACK_BASE_TRAILER);
  });

  it('refuses a branch that is not at the head the tracker knows', async () => {
    const head = await branch('flotilla/1', base, { 'a.txt': 'a\n' });
    await repo.commit('main moves', { 'c.txt': 'c\n' });
    await expect(rebase('flotilla/1', base)).rejects.toThrow(/flotilla\/1 is at .* nothing was rebased/);
    expect((await repo.git(['rev-parse', 'flotilla/1'])).trim()).toBe(head);
  });
});
