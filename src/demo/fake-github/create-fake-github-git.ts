import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../../process/run-command.ts';

export interface FakeGitTreeEntry {
  path: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** Blobs only. */
  size: number | null;
}

/** The fake GitHub's repository contents: a real bare git repository, read and written with plumbing. */
export interface FakeGitHubGit {
  /** The bare repository (clone it, push to it). */
  path: string;
  /**
   * Commits these files (added or replaced) on top of the branch; a new branch starts from `startPoint`
   * (a commit), or from nothing.
   */
  commitFiles(
    branch: string,
    files: Readonly<Record<string, string>>,
    message: string,
    startPoint?: string,
  ): Promise<string>;
  /** The commit a branch name, tag or SHA names; null when it names none. */
  resolveCommit(name: string): Promise<string | null>;
  /** The tree a commit or tree SHA (or branch name) names, with its entries; null when there is none. */
  readTree(name: string, recursive: boolean): Promise<{ sha: string; entries: FakeGitTreeEntry[] } | null>;
  /**
   * Merges `head` into `branch` with a merge commit (as GitHub's merge button does), compare-and-swap on the
   * branch's head; null when they conflict.
   */
  mergeInto(branch: string, head: string, message: string): Promise<string | null>;
  /**
   * A merge commit of `first` and `second` (parents in that order) with the merged tree, on no branch; null
   * when they conflict.
   */
  mergeCommit(first: string, second: string, message: string): Promise<string | null>;
  /** Moves a branch (created if `from` is null) by compare-and-swap: false when it is not at `from`. */
  moveBranch(branch: string, to: string, from: string | null): Promise<boolean>;
  /** Whether `ancestor` is in `commit`'s history (or is it). */
  isAncestor(ancestor: string, commit: string): Promise<boolean>;
  /** Whether `head` merges into `base` without conflicts. */
  canMerge(base: string, head: string): Promise<boolean>;
  /** The best common ancestor of two commits; null when they have none. */
  mergeBase(a: string, b: string): Promise<string | null>;
  /** Deletes a branch (nothing when it does not exist). */
  deleteBranch(branch: string): Promise<void>;
  /** A blob's bytes; null when the SHA names no blob. */
  readBlob(sha: string): Promise<Buffer | null>;
  remove(): Promise<void>;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Fake GitHub',
  GIT_AUTHOR_EMAIL: 'noreply@github.invalid',
  GIT_COMMITTER_NAME: 'Fake GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};
const SHA = /^[0-9a-f]{40}$/;

export async function createFakeGitHubGit(defaultBranch: string): Promise<FakeGitHubGit> {
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-fake-github-'));
  const path = join(scratch, 'repo.git');
  const git = async (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
    runGit(args, { cwd: path, input: options.input, env: { ...IDENTITY, ...options.env } });
  await runGit(['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, path], {
    cwd: scratch,
    env: IDENTITY,
  });

  async function resolve(name: string, type: 'commit' | 'tree'): Promise<string | null> {
    if (name.startsWith('-')) return null;
    const result = await git(['rev-parse', '--verify', '--quiet', `${name}^{${type}}`]).catch(() => null);
    return result?.stdout.trim() || null;
  }

  return {
    path,
    async commitFiles(branch, files, message, startPoint) {
      const ref = `refs/heads/${branch}`;
      const current = await resolve(ref, 'commit');
      const parent = current ?? startPoint ?? null;
      const index = { GIT_INDEX_FILE: join(scratch, `index-${process.hrtime.bigint()}`) };
      try {
        if (parent !== null) await git(['read-tree', parent], { env: index });
        for (const [filePath, content] of Object.entries(files)) {
          const blob = (await git(['hash-object', '-w', '--stdin'], { input: content })).stdout.trim();
          await git(['update-index', '--add', '--cacheinfo', `100644,${blob},${filePath}`], { env: index });
        }
        const tree = (await git(['write-tree'], { env: index })).stdout.trim();
        const commit = (
          await git(['commit-tree', tree, ...(parent === null ? [] : ['-p', parent]), '-m', message])
        ).stdout.trim();
        // Compare-and-swap: a concurrent push in between fails here instead of being overwritten.
        await git(['update-ref', ref, commit, current ?? '0'.repeat(40)]);
        return commit;
      } finally {
        await rm(index.GIT_INDEX_FILE, { force: true });
      }
    },
    resolveCommit: (name) => resolve(name, 'commit'),
    async deleteBranch(branch) {
      if ((await resolve(`refs/heads/${branch}`, 'commit')) === null) return;
      await git(['update-ref', '-d', `refs/heads/${branch}`]);
    },
    async readTree(name, recursive) {
      const sha = await resolve(name, 'tree');
      if (sha === null) return null;
      const args = ['ls-tree', '-l', '-z', ...(recursive ? ['-r', '-t'] : []), sha];
      const entries: FakeGitTreeEntry[] = [];
      for (const line of (await git(args)).stdout.split('\0')) {
        const tab = line.indexOf('\t');
        if (tab === -1) continue;
        const [mode = '', type = '', entrySHA = '', size = '-'] = line.slice(0, tab).trim().split(/\s+/);
        entries.push({
          path: line.slice(tab + 1),
          mode,
          type: type as FakeGitTreeEntry['type'],
          sha: entrySHA,
          size: size === '-' ? null : Number(size),
        });
      }
      return { sha, entries };
    },
    async mergeInto(branch, head, message) {
      const ref = `refs/heads/${branch}`;
      const base = await resolve(ref, 'commit');
      if (base === null) return null;
      const merged = await runGit(['merge-tree', '--write-tree', base, head], {
        cwd: path,
        env: IDENTITY,
        okExitCodes: [0, 1],
      });
      if (merged.exitCode !== 0) return null;
      const tree = merged.stdout.split('\n')[0]?.trim() ?? '';
      const commit = (await git(['commit-tree', tree, '-p', base, '-p', head, '-m', message])).stdout.trim();
      await git(['update-ref', ref, commit, base]);
      return commit;
    },
    async mergeCommit(first, second, message) {
      const merged = await runGit(['merge-tree', '--write-tree', first, second], {
        cwd: path,
        env: IDENTITY,
        okExitCodes: [0, 1],
      });
      if (merged.exitCode !== 0) return null;
      const tree = merged.stdout.split('\n')[0]?.trim() ?? '';
      return (await git(['commit-tree', tree, '-p', first, '-p', second, '-m', message])).stdout.trim();
    },
    async moveBranch(branch, to, from) {
      const moved = await runGit(['update-ref', `refs/heads/${branch}`, to, from ?? '0'.repeat(40)], {
        cwd: path,
        env: IDENTITY,
        okExitCodes: [0, 128],
      });
      return moved.exitCode === 0;
    },
    async isAncestor(ancestor, commit) {
      const result = await runGit(['merge-base', '--is-ancestor', ancestor, commit], {
        cwd: path,
        env: IDENTITY,
        okExitCodes: [0, 1, 128],
      });
      return result.exitCode === 0;
    },
    async canMerge(base, head) {
      const merged = await runGit(['merge-tree', '--write-tree', base, head], {
        cwd: path,
        env: IDENTITY,
        okExitCodes: [0, 1],
      });
      return merged.exitCode === 0;
    },
    async mergeBase(a, b) {
      const result = await git(['merge-base', a, b]).catch(() => null);
      return result?.stdout.trim() || null;
    },
    async readBlob(sha) {
      if (!SHA.test(sha)) return null;
      const type = await git(['cat-file', '-t', sha]).catch(() => null);
      if (type?.stdout.trim() !== 'blob') return null;
      return (await git(['cat-file', 'blob', sha])).stdoutBytes;
    },
    remove: () => rm(scratch, { recursive: true, force: true }),
  };
}
