import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../../test/support/shared/create-temp-git-repo.ts';
import { IntegrateRevisionError } from './integrate-revision.ts';
import { integrateWithSharedRemote } from './integrate-with-shared-remote.ts';

// Cluster mode (issue #33): merges from any clone land on the shared bare remote's default branch.
describe('integrateWithSharedRemote', () => {
  let repo: TempGitRepo;
  let shared: string;
  let bare: string;
  let machineB: string;
  const identity = { name: 'Flotilla', email: 'flotilla@localhost' };
  const warnings: string[] = [];

  beforeEach(async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', { 'README.md': '# words\n' });
    shared = await mkdtemp(join(tmpdir(), 'flotilla-shared-remote-'));
    bare = join(shared, 'remote.git');
    machineB = join(shared, 'machine-b');
    await repo.git(['clone', '--quiet', '--bare', repo.root, bare]);
    await repo.git(['remote', 'add', 'origin', bare]);
    await repo.git(['fetch', '--quiet', 'origin']);
    await repo.git(['clone', '--quiet', bare, machineB]);
    warnings.length = 0;
  });
  afterEach(async () => {
    await repo.cleanup();
    await rm(shared, { recursive: true, force: true });
  });

  const sha = async (ref: string, cwd = repo.root) => (await repo.git(['rev-parse', ref], cwd)).trim();
  const contains = async (ancestor: string, ref: string, cwd: string) =>
    repo
      .git(['merge-base', '--is-ancestor', ancestor, ref], cwd)
      .then(() => true)
      .catch(() => false);

  /** A revision branch in `cwd` off its main: one commit adding `file`, main's checkout left as it was. */
  async function revision(branch: string, file: string, cwd = repo.root): Promise<string> {
    await repo.git(['checkout', '--quiet', '-b', branch, 'main'], cwd);
    const head = await repo.commit(branch, { [file]: `${branch}\n` }, cwd);
    await repo.git(['checkout', '--quiet', 'main'], cwd);
    return head;
  }

  /** What a controller publishes (src/cluster/create-cluster-git.ts): its revision branches. */
  const publish = (cwd = repo.root) =>
    repo.git(
      [
        'push',
        '--quiet',
        '--force',
        'origin',
        'refs/heads/flotilla/*:refs/flotilla/cluster/heads/flotilla/*',
      ],
      cwd,
    );

  const merge = (branchName: string, headSHA: string, cwd = repo.root) =>
    integrateWithSharedRemote({
      repoRoot: cwd,
      defaultBranch: 'main',
      branchName,
      headSHA,
      message: `Merge ${branchName}\n`,
      fallbackIdentity: identity,
      remote: 'origin',
      warn: (message) => warnings.push(message),
    });

  /** Makes `clone`'s pushes meet a remote another machine pushed to first, `times` times (a real race). */
  async function raceOnPush(clone: string, times: number): Promise<void> {
    const script = join(shared, 'race-receive-pack.sh');
    await writeFile(
      script,
      [
        '#!/bin/sh',
        'unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE',
        `count=$(cat "${shared}/races" 2>/dev/null || echo 0)`,
        `if [ "$count" -lt ${times} ]; then`,
        `  echo $((count + 1)) > "${shared}/races"`,
        `  cd "${machineB}" && git pull --quiet --ff-only origin main`,
        '  echo "$count" > "other-$count.txt" && git add -A',
        '  git -c user.name=Other -c user.email=other@localhost commit --quiet -m "other machine $count"',
        '  git push --quiet origin main',
        'fi',
        'exec git-receive-pack "$@"',
        '',
      ].join('\n'),
    );
    await chmod(script, 0o755);
    await repo.git(['config', 'remote.origin.receivepack', script], clone);
  }

  it("pushes the merge to the remote's default branch and fast-forwards this clone's checkout", async () => {
    const head = await revision('flotilla/1', 'one.txt');
    const result = await merge('flotilla/1', head);
    expect(result).toMatchObject({ strategy: 'fast-forward', mergedSHA: head, updatedWorktree: repo.root });
    expect(await sha('main', bare)).toBe(head);
    expect(await sha('main')).toBe(head);
  });

  it("another clone merges the published revision after following the first clone's merge", async () => {
    const first = await revision('flotilla/1', 'one.txt');
    const second = await revision('flotilla/2', 'two.txt');
    await publish();
    await merge('flotilla/1', first);
    // B has neither A's merge nor flotilla/2: both come from the remote.
    const onB = await merge('flotilla/2', second, machineB);
    expect(onB.strategy).toBe('merge-commit');
    expect(onB.previousSHA).toBe(first);
    expect(await sha('flotilla/2', machineB)).toBe(second);
    expect(await sha('main', bare)).toBe(onB.mergedSHA);
    expect(await sha('main', machineB)).toBe(onB.mergedSHA);
    // A's next merge starts from B's.
    const third = await revision('flotilla/3', 'three.txt');
    const onA = await merge('flotilla/3', third);
    expect(onA.previousSHA).toBe(onB.mergedSHA);
    expect(await sha('main', bare)).toBe(onA.mergedSHA);
    for (const merged of [first, second, third]) expect(await contains(merged, 'main', bare)).toBe(true);
  });

  it('refuses a default branch with commits of its own, naming them, and changes nothing', async () => {
    const head = await revision('flotilla/1', 'one.txt');
    const own = await repo.commit('my own work', { 'mine.txt': 'mine\n' });
    const bareBefore = await sha('main', bare);
    const refusal = await merge('flotilla/1', head).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(IntegrateRevisionError);
    expect((refusal as IntegrateRevisionError).message).toMatch(
      /^main here has 1 commit\(s\) that origin\/main lacks; .*git pull --rebase origin main/,
    );
    expect((refusal as IntegrateRevisionError).details).toEqual([`${own.slice(0, 7)} my own work`]);
    expect(await sha('main')).toBe(own);
    expect(await sha('main', bare)).toBe(bareBefore);
  });

  it('refuses a diverged default branch the same way: the remote moved and so did this clone', async () => {
    const head = await revision('flotilla/1', 'one.txt', machineB);
    await repo.git(
      ['push', '--quiet', 'origin', 'flotilla/1:refs/flotilla/cluster/heads/flotilla/1'],
      machineB,
    );
    const mine = await repo.commit('my own work', { 'mine.txt': 'mine\n' });
    const theirs = await repo.commit('their work', { 'theirs.txt': 'theirs\n' }, machineB);
    await repo.git(['push', '--quiet', 'origin', 'main'], machineB);
    const refusal = await merge('flotilla/1', head).catch((error: unknown) => error);
    expect((refusal as IntegrateRevisionError).message).toMatch(/^main here has 1 commit\(s\)/);
    expect(await sha('main')).toBe(mine);
    expect(await sha('main', bare)).toBe(theirs);
  });

  it('merges again on top when another machine pushed between its fetch and its push', async () => {
    const head = await revision('flotilla/1', 'one.txt');
    await raceOnPush(repo.root, 1);
    const result = await merge('flotilla/1', head);
    const other = await sha('main', machineB);
    expect(result.previousSHA).toBe(other);
    expect(result.strategy).toBe('merge-commit');
    expect(await sha('main', bare)).toBe(result.mergedSHA);
    expect(await contains(other, 'main', bare)).toBe(true);
    expect(await contains(head, 'main', bare)).toBe(true);
  });

  it('fails clearly after a second rejected push, with nothing merged anywhere', async () => {
    const head = await revision('flotilla/1', 'one.txt');
    await raceOnPush(repo.root, 2);
    const refusal = await merge('flotilla/1', head).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(IntegrateRevisionError);
    expect((refusal as Error).message).toBe(
      "'origin' rejected the push of main 2 times: other machines merged into it meanwhile. flotilla/1 was not merged anywhere and its item stays approved; run the merge again",
    );
    expect(await contains(head, 'main', bare)).toBe(false);
    expect(await contains(head, 'main', repo.root)).toBe(false);
    expect(await sha('flotilla/1')).toBe(head);
  });

  it('refuses when the published revision branch is not the approved head', async () => {
    const head = await revision('flotilla/1', 'one.txt');
    await publish();
    await repo.git(['push', '--quiet', '--force', 'origin', 'main:refs/flotilla/cluster/heads/flotilla/1']);
    const refusal = await merge('flotilla/1', head, machineB).catch((error: unknown) => error);
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `^flotilla/1 as published on 'origin' is at [0-9a-f]{12}, not the approved ${head.slice(0, 12)}`,
      ),
    );
    expect(await contains(head, 'main', bare)).toBe(false);
  });
});
