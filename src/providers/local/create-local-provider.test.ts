import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { isProcessRunning } from '../../../test/support/shared/is-process-running.ts';
import { silentLogger } from '../../logging/logger.ts';
import { buildAddFilePatch } from '../../runtimes/scripted/build-scripted-results.ts';
import { openDatabase } from '../../storage/index.ts';
import {
  createLocalProvider,
  type LocalProvider,
  type LocalProviderOptions,
} from './create-local-provider.ts';
import type { LocalChecksResult, RunLocalChecksParams } from './git/run-local-checks.ts';

const PASS = 'node -e "process.exit(0)"';
const FAIL = 'node -e "console.error(\'tests: 1 failed\'); process.exit(3)"';

let repo: TempGitRepo;
let dir: ReturnType<typeof createTempDir>;
const providers: LocalProvider[] = [];

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': 'hello\n', 'src/keep.ts': 'export const keep = 1;\n' });
  dir = createTempDir('flotilla-local-provider-');
});

afterEach(async () => {
  for (const provider of providers.splice(0)) {
    await provider.runPendingChecks();
    await provider.close();
  }
  await repo.cleanup();
  dir.remove();
});

function open(overrides: Partial<Omit<LocalProviderOptions, 'db' | 'dbPath'>> = {}): LocalProvider {
  const provider = createLocalProvider({
    repoRoot: repo.root,
    defaultBranch: 'main',
    specsDir: 'docs/specs',
    dbPath: join(dir.path, 'flotilla.db'),
    checksCommand: null,
    checksTimeoutMs: 30_000,
    logsDir: join(dir.path, 'logs'),
    logger: silentLogger,
    ...overrides,
  });
  providers.push(provider);
  return provider;
}

async function createItem(provider: LocalProvider, title = 'Add a feature') {
  return provider.workItemWriter.createWorkItem({ title, body: 'do it', labels: [], blockedBy: [] });
}

function patchInput(
  workItemID: string,
  patch = buildAddFilePatch('src/feature.ts', 'export const f = 1;\n'),
) {
  return {
    workItemID,
    patch,
    branchName: `flotilla/${workItemID}`,
    title: '',
    body: `Closes #${workItemID}`,
  };
}

/** A controllable checks double: each call waits until the test settles it. */
function createDeferredChecks() {
  const calls: { params: RunLocalChecksParams; settle(result: Partial<LocalChecksResult>): void }[] = [];
  const runChecks = (params: RunLocalChecksParams) =>
    new Promise<LocalChecksResult>((resolve) => {
      calls.push({
        params,
        settle: (result) =>
          resolve({ status: 'success', reason: null, logPath: '/tmp/log', durationMs: 1, ...result }),
      });
    });
  return { calls, runChecks };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('createLocalProvider: revisions on git', () => {
  it('commits the patch on flotilla/<id> from the default branch without touching the working tree', async () => {
    const provider = open();
    const item = await createItem(provider);
    const mainBefore = (await repo.git(['rev-parse', 'main'])).trim();
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));

    expect(revision.headRef).toBe(`flotilla/${item.id}`);
    expect((await repo.git(['rev-parse', `flotilla/${item.id}`])).trim()).toBe(revision.headSHA);
    expect((await repo.git(['rev-parse', `${revision.headSHA}^1`])).trim()).toBe(mainBefore);
    expect(await repo.git(['show', `${revision.headSHA}:src/feature.ts`])).toBe('export const f = 1;\n');
    expect(await repo.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', revision.headSHA])).toContain(
      `Flotilla <flotilla@localhost>|Flotilla <flotilla@localhost>|Add a feature\n\nFlotilla revision for work item #${item.id}.`,
    );
    // The user's checkout: same HEAD, clean tree, no new file.
    expect((await repo.git(['rev-parse', 'HEAD'])).trim()).toBe(mainBefore);
    expect(await repo.git(['status', '--porcelain'])).toBe('');
    expect(existsSync(join(repo.root, 'src/feature.ts'))).toBe(false);
  });

  it('re-pushes onto the current default branch head, keeping one revision', async () => {
    const provider = open();
    const item = await createItem(provider);
    const first = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    const newMain = await repo.commit('upstream', { 'other.txt': 'x\n' });
    const second = await provider.revisionWriter.createFromPatch(
      patchInput(item.id, buildAddFilePatch('src/feature.ts', 'export const f = 2;\n')),
    );
    expect(second.id).toBe(first.id);
    expect(second.headSHA).not.toBe(first.headSHA);
    expect((await repo.git(['rev-parse', `${second.headSHA}^1`])).trim()).toBe(newMain);
    expect(provider.tracker.revisions.listRevisionPushes(first.id).map((push) => push.headSHA)).toEqual([
      first.headSHA,
      second.headSHA,
    ]);
    expect(await provider.revisionReader.getRevisionFiles(first.id)).toEqual([
      { path: 'src/feature.ts', status: 'added', patch: '@@ -0,0 +1 @@\n+export const f = 2;' },
    ]);
  });

  it('rejects a patch that does not apply, naming the file, and writes nothing', async () => {
    const provider = open();
    const item = await createItem(provider);
    const bad = [
      'diff --git a/src/keep.ts b/src/keep.ts',
      '--- a/src/keep.ts',
      '+++ b/src/keep.ts',
      '@@ -1 +1 @@',
      '-export const keep = 999;',
      '+export const keep = 2;',
      '',
    ].join('\n');
    await expect(provider.revisionWriter.createFromPatch(patchInput(item.id, bad))).rejects.toThrow(
      /does not apply.*src\/keep\.ts/,
    );
    expect(await repo.git(['branch', '--list', 'flotilla/*'])).toBe('');
    expect(await provider.revisionReader.listRevisions()).toEqual([]);
    expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBeNull();
  });

  it('rejects an unknown work item before writing a branch', async () => {
    const provider = open();
    await expect(provider.revisionWriter.createFromPatch(patchInput('42'))).rejects.toThrow(/#42/);
    expect(await repo.git(['branch', '--list', 'flotilla/*'])).toBe('');
  });

  it('puts the branch back when recording the revision fails after the branch was written', async () => {
    const db = openDatabase(join(dir.path, 'own.db'));
    try {
      const provider = createLocalProvider({
        repoRoot: repo.root,
        defaultBranch: 'main',
        specsDir: 'docs/specs',
        db,
        checksCommand: null,
        checksTimeoutMs: 30_000,
        logsDir: join(dir.path, 'logs'),
        logger: silentLogger,
      });
      const item = await createItem(provider);
      const first = await provider.revisionWriter.createFromPatch(patchInput(item.id));
      db.exec(
        "CREATE TRIGGER fail_push BEFORE INSERT ON revision_pushes BEGIN SELECT RAISE(ABORT, 'disk full'); END",
      );
      const other = await createItem(provider, 'Other');
      await expect(provider.revisionWriter.createFromPatch(patchInput(other.id))).rejects.toThrow(
        /disk full/,
      );
      await expect(
        provider.revisionWriter.createFromPatch(
          patchInput(item.id, buildAddFilePatch('src/feature.ts', 'export const f = 2;\n')),
        ),
      ).rejects.toThrow(/disk full/);
      // The new branch is gone; the existing one points where the recorded head says.
      expect(await repo.git(['branch', '--list', `flotilla/${other.id}`])).toBe('');
      expect((await repo.git(['rev-parse', `flotilla/${item.id}`])).trim()).toBe(first.headSHA);
      expect((await provider.revisionReader.getRevision(first.id))?.headSHA).toBe(first.headSHA);
      await provider.close();
      expect(db.open).toBe(true); // the caller's database stays open
    } finally {
      db.close();
    }
  });

  it('lists a revision file for binary, renamed and deleted files from the real commit', async () => {
    const provider = open();
    const item = await createItem(provider);
    const scratch = await createTempGitRepo();
    try {
      await repo.git(['worktree', 'add', '--quiet', '--detach', join(scratch.root, 'wt'), 'main']);
      const wt = join(scratch.root, 'wt');
      await repo.git(['mv', 'src/keep.ts', 'src/kept.ts'], wt);
      await repo.git(['rm', '--quiet', 'README.md'], wt);
      await repo.write({ 'logo.bin': Buffer.from([0, 1, 2, 255]) }, wt);
      await repo.git(['add', '-A'], wt);
      const patch = await repo.git(['diff', '--cached', '--binary', '--full-index', '-M'], wt);
      await repo.git(['worktree', 'remove', '--force', wt]);
      const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id, patch));
      const files = await provider.revisionReader.getRevisionFiles(revision.id);
      expect(files).toEqual(
        expect.arrayContaining([
          { path: 'README.md', status: 'removed', patch: '@@ -1 +0,0 @@\n-hello' },
          { path: 'logo.bin', status: 'added', patch: null },
          { path: 'src/kept.ts', status: 'renamed', patch: '' },
        ]),
      );
      expect(files).toHaveLength(3);
    } finally {
      await scratch.cleanup();
    }
  });
});

describe('createLocalProvider: checks', () => {
  it('runs the checks command in the background: pending, then success', async () => {
    const provider = open({ checksCommand: PASS });
    const item = await createItem(provider);
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    expect(revision.pipeline).toEqual({ status: 'pending', url: null, reason: null });
    await provider.runPendingChecks();
    const pipeline = (await provider.revisionReader.getRevision(revision.id))?.pipeline;
    expect(pipeline).toEqual({
      status: 'success',
      url: expect.stringMatching(/checks-.*\.log$/),
      reason: null,
    });
    // The passing log is kept and reachable, like a failing one.
    expect(readFileSync(pipeline?.url ?? '', 'utf8')).toContain('checks passed');
  });

  it('tells change listeners when a checks result is recorded, until they unsubscribe', async () => {
    const provider = open({ checksCommand: PASS });
    const changes: string[] = [];
    const unsubscribe = provider.onChange((change) => changes.push(change));
    const item = await createItem(provider);
    await provider.revisionWriter.createFromPatch(patchInput(item.id));
    expect(changes).toEqual([]);
    await provider.runPendingChecks();
    expect(changes).toEqual(['revisions']);

    unsubscribe();
    await provider.revisionWriter.createFromPatch(
      patchInput(item.id, buildAddFilePatch('src/feature.ts', 'export const f = 2;\n')),
    );
    await provider.runPendingChecks();
    expect(changes).toEqual(['revisions']);
  });

  it('records a failure with the kept log and the reason', async () => {
    const provider = open({ checksCommand: FAIL });
    const item = await createItem(provider);
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    await provider.runPendingChecks();
    const pipeline = (await provider.revisionReader.getRevision(revision.id))?.pipeline;
    expect(pipeline?.status).toBe('failure');
    expect(pipeline?.reason).toMatch(/exit(ed)? .*3[\s\S]*tests: 1 failed/);
    expect(pipeline?.url).toMatch(/checks-.*\.log$/);
    expect(readFileSync(pipeline?.url ?? '', 'utf8')).toContain('tests: 1 failed');
  });

  it('checks the revision head in a worktree (the command sees the patched files)', async () => {
    const provider = open({ checksCommand: `node -e "require('node:fs').accessSync('src/feature.ts')"` });
    const item = await createItem(provider);
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    await provider.runPendingChecks();
    expect((await provider.revisionReader.getRevision(revision.id))?.pipeline?.status).toBe('success');
    expect((await repo.git(['worktree', 'list', '--porcelain'])).match(/^worktree /gm)).toHaveLength(1);
  });

  it('runs one check at a time per revision and ignores the result for a superseded head', async () => {
    const checks = createDeferredChecks();
    const provider = open({ checksCommand: PASS, runChecks: checks.runChecks });
    const item = await createItem(provider);
    const first = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    await tick();
    expect(checks.calls.map((call) => call.params.headSHA)).toEqual([first.headSHA]);

    const second = await provider.revisionWriter.createFromPatch(
      patchInput(item.id, buildAddFilePatch('src/feature.ts', 'export const f = 2;\n')),
    );
    await tick();
    expect(checks.calls).toHaveLength(1); // the second head waits for the first run

    checks.calls[0]?.settle({ status: 'failure', reason: 'old head failed' });
    await tick();
    // The stale failure is not shown, and not recorded for the new head; the new head's run started.
    expect((await provider.revisionReader.getRevision(first.id))?.pipeline?.status).toBe('pending');
    expect(provider.tracker.revisions.getPipeline(first.id, first.headSHA)?.status).toBe('pending');
    expect(checks.calls.map((call) => call.params.headSHA)).toEqual([first.headSHA, second.headSHA]);

    checks.calls[1]?.settle({ status: 'success' });
    await provider.runPendingChecks();
    expect((await provider.revisionReader.getRevision(first.id))?.pipeline?.status).toBe('success');
    expect(checks.calls).toHaveLength(2);
  });

  it('records a failure when the checks cannot be set up, instead of staying pending forever', async () => {
    const provider = open({
      checksCommand: PASS,
      runChecks: async () => {
        throw new Error('git worktree add failed');
      },
    });
    const item = await createItem(provider);
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    await provider.runPendingChecks();
    expect((await provider.revisionReader.getRevision(revision.id))?.pipeline).toMatchObject({
      status: 'failure',
      reason: 'checks could not run: git worktree add failed',
    });
  });

  it('close cancels the checks in flight; the head stays pending and runs again at the next start', async () => {
    const checks = createDeferredChecks();
    const stopped = open({ checksCommand: PASS, runChecks: checks.runChecks });
    const item = await createItem(stopped);
    const revision = await stopped.revisionWriter.createFromPatch(patchInput(item.id));
    await tick();
    expect(checks.calls).toHaveLength(1);
    const closing = stopped.close();
    expect(checks.calls[0]?.params.signal?.aborted).toBe(true);
    // A result that still arrives (a double that ignores the signal) is not recorded; close waits for it.
    checks.calls[0]?.settle({ status: 'failure' });
    await closing;
    await stopped.runPendingChecks(); // restarts nothing, does not touch the closed db
    providers.splice(providers.indexOf(stopped), 1);

    const restarted = open({ checksCommand: PASS });
    expect((await restarted.revisionReader.getRevision(revision.id))?.pipeline?.status).toBe('pending');
    await restarted.runPendingChecks();
    expect((await restarted.revisionReader.getRevision(revision.id))?.pipeline?.status).toBe('success');
  });

  it('close kills a running checks command and removes its worktree instead of waiting for it', async () => {
    const pidFile = join(dir.path, 'checks.pid');
    const provider = open({ checksCommand: `echo $$ > "${pidFile}"; sleep 60` });
    const item = await createItem(provider);
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    const pid = await waitForPid(pidFile);

    await provider.close();
    providers.splice(providers.indexOf(provider), 1);

    expect(isProcessRunning(pid)).toBe(false);
    const worktrees = (await repo.git(['worktree', 'list', '--porcelain'])).match(/^worktree /gm) ?? [];
    expect(worktrees).toHaveLength(1);
    const reopened = open({ checksCommand: null });
    expect(reopened.tracker.revisions.getPipeline(revision.id, revision.headSHA)?.status).toBe('pending');
  });
});

/** Waits until the checks command wrote its pid. */
async function waitForPid(path: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
    if (pid > 0) return pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the checks command never wrote ${path}`);
}

describe('createLocalProvider: mergeRevision', () => {
  /** An item with a revision adding src/feature.ts, moved to `status`. */
  async function itemWithRevision(provider: LocalProvider, status: 'approved' | 'review' = 'approved') {
    const item = await createItem(provider);
    const revision = await provider.revisionWriter.createFromPatch(patchInput(item.id));
    await provider.workItemWriter.transitionStatus(item.id, status);
    return { item, revision };
  }
  const merge = (provider: LocalProvider, revisionID: string) => {
    if (provider.revisionWriter.mergeRevision === undefined) throw new Error('the local provider merges');
    return provider.revisionWriter.mergeRevision(revisionID);
  };

  it('fast-forwards the clean checked-out default branch, marks the revision merged and closes the item', async () => {
    const provider = open();
    const { item, revision } = await itemWithRevision(provider);
    const before = (await repo.git(['rev-parse', 'main'])).trim();

    const result = await merge(provider, revision.id);

    expect(result).toEqual({
      workItem: expect.objectContaining({ id: item.id, status: 'closed', linkedRevision: null }),
      strategy: 'fast-forward',
      mergedSHA: revision.headSHA,
      // What `flotilla merge` prints: where main was, and the checkout it fast-forwarded.
      previousSHA: before,
      updatedWorktree: expect.stringMatching(/\S/),
    });
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(revision.headSHA);
    // The checkout followed (git merge --ff-only), so it does not look as if it reverted the merge.
    expect(readFileSync(join(repo.root, 'src/feature.ts'), 'utf8')).toBe('export const f = 1;\n');
    expect(await repo.git(['status', '--porcelain'])).toBe('');
    expect(await provider.workItemReader.getWorkItem(item.id)).toEqual(result.workItem);
    expect(await provider.revisionReader.listRevisions()).toEqual([]);
    expect(provider.tracker.revisions.getRevisionState(revision.id)).toBe('merged');
    // The revision branch is kept.
    expect((await repo.git(['rev-parse', `flotilla/${item.id}`])).trim()).toBe(revision.headSHA);
  });

  /** A bare clone of the repository as its `origin` (the shared remote of a cluster); returns its path. */
  async function withSharedRemote(): Promise<string> {
    const bare = join(dir.path, 'remote.git');
    await repo.git(['clone', '--quiet', '--bare', repo.root, bare]);
    await repo.git(['remote', 'add', 'origin', bare]);
    return bare;
  }

  it('one machine (no sharedRemote): the merge stays in this clone, nothing is pushed', async () => {
    const bare = await withSharedRemote();
    const before = (await repo.git(['rev-parse', 'main'], bare)).trim();
    const provider = open();
    const { revision } = await itemWithRevision(provider);
    await merge(provider, revision.id);
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(revision.headSHA);
    expect((await repo.git(['rev-parse', 'main'], bare)).trim()).toBe(before);
  });

  it('cluster mode (sharedRemote): a refused merge leaves the item approved; a merge lands on the remote', async () => {
    const bare = await withSharedRemote();
    const provider = open({ sharedRemote: 'origin' });
    const { item, revision } = await itemWithRevision(provider);
    const own = await repo.commit('my own work', { 'mine.txt': 'mine\n' });

    await expect(merge(provider, revision.id)).rejects.toThrow(
      /^main here has 1 commit\(s\) that origin\/main lacks/,
    );
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('approved');
    expect(provider.tracker.revisions.getRevisionState(revision.id)).toBe('open');
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(own);

    await repo.git(['push', '--quiet', 'origin', 'main']);
    const result = await merge(provider, revision.id);
    expect(result.strategy).toBe('merge-commit');
    expect((await repo.git(['rev-parse', 'main'], bare)).trim()).toBe(result.mergedSHA);
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(result.mergedSHA);
    expect(provider.tracker.revisions.getRevisionState(revision.id)).toBe('merged');
  });

  it('writes a merge commit when the default branch moved on', async () => {
    const provider = open();
    const { item, revision } = await itemWithRevision(provider);
    const mainMoved = await repo.commit('upstream work', { 'other.txt': 'x\n' });

    const result = await merge(provider, revision.id);

    expect(result.strategy).toBe('merge-commit');
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(result.mergedSHA);
    expect((await repo.git(['rev-list', '--parents', '-n', '1', result.mergedSHA])).trim()).toBe(
      `${result.mergedSHA} ${mainMoved} ${revision.headSHA}`,
    );
    expect(await repo.git(['log', '-1', '--format=%B', result.mergedSHA])).toContain(
      `Work item #${item.id}, revision #${revision.id}, merged by the flotilla engine.`,
    );
    expect(await repo.git(['status', '--porcelain'])).toBe('');
  });

  it('refuses a default branch checked out with uncommitted changes, like flotilla merge, changing nothing', async () => {
    const provider = open();
    const { item, revision } = await itemWithRevision(provider);
    const mainBefore = (await repo.git(['rev-parse', 'main'])).trim();
    await repo.write({ 'README.md': 'my local edit\n' });

    const refused = merge(provider, revision.id);
    await expect(refused).rejects.toThrow(
      `main is checked out in ${repo.root} with uncommitted changes; commit or stash them`,
    );
    await expect(refused).rejects.toMatchObject({
      name: 'IntegrateRevisionError',
      details: [' M README.md'],
    });

    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(mainBefore);
    expect(await repo.git(['status', '--porcelain'])).toBe(' M README.md\n');
    expect(readFileSync(join(repo.root, 'README.md'), 'utf8')).toBe('my local edit\n');
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('approved');
    expect(provider.tracker.revisions.getRevisionState(revision.id)).toBe('open');
  });

  it('refuses an item that is not approved, and a revision that is not open, before touching git', async () => {
    const provider = open();
    const { item, revision } = await itemWithRevision(provider, 'review');
    const mainBefore = (await repo.git(['rev-parse', 'main'])).trim();
    await expect(merge(provider, revision.id)).rejects.toThrow(`#${item.id} is review, not approved`);
    expect(provider.tracker.revisions.getRevisionState(revision.id)).toBe('open');

    await provider.workItemWriter.transitionStatus(item.id, 'approved');
    provider.tracker.revisions.closeRevision(revision.id);
    await expect(merge(provider, revision.id)).rejects.toThrow(
      `revision #${revision.id} is closed; only open revisions are merged`,
    );
    await expect(merge(provider, '987654')).rejects.toThrow('revision #987654 does not exist');
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(mainBefore);
    expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('approved');
  });
});
