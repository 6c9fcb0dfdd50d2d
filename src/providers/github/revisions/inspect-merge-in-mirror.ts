import { mkdir } from 'node:fs/promises';
import type { MergeConflictFile } from '../../../domain/index.ts';
import { PINNED_DIFF_CONFIG, runGit } from '../../../process/run-command.ts';
import { readConflictHunks } from '../../shared/read-conflict-hunks.ts';
import { authEnv, type GitRemote } from './push-patch-branch.ts';

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--full-index'];

/** What the merge queue asks git about a pull request, in a bare mirror of the remote (no REST calls). */
export interface MergeInspector {
  /** Fetches the branches (by name: not every server serves a bare SHA) and returns their heads. */
  fetch(branches: string[]): Promise<Record<string, string>>;
  /** Whether `ancestor` is in `commit`'s history. */
  contains(commit: string, ancestor: string): Promise<boolean>;
  /**
   * The files (and hunks) that conflict when `base` is merged into `head`, as GitHub's update-branch merges
   * them; empty when they merge cleanly.
   */
  conflicts(base: string, head: string, labels: Record<string, string>): Promise<MergeConflictFile[]>;
  /**
   * Whether the pull request's change after the update (`base` → `updated`) differs from the one before
   * (`merge-base(head, base)` → `head`) beyond shifted lines (`git patch-id --stable`, as the local rebase).
   */
  changedApproved(head: string, base: string, updated: string): Promise<boolean>;
}

/**
 * The merge queue's git side for GitHub (issue #30 §5): a bare mirror of its own (the patch mirror belongs to
 * pushPatchBranch, one patch at a time), fetched into `refs/flotilla/queue/*`; the token reaches git through
 * its environment only, as for pushes.
 */
export function createMergeInspector(remote: GitRemote, mirrorDir: string): MergeInspector {
  let ready: Promise<unknown> | null = null;
  const git = async (args: string[], okExitCodes: number[] = [0], input?: string) =>
    runGit(args, { cwd: mirrorDir, okExitCodes, input, env: { GIT_CONFIG_NOSYSTEM: '1' } });
  return {
    async fetch(branches) {
      ready ??= mkdir(mirrorDir, { recursive: true }).then(() => git(['init', '--bare', '--quiet']));
      await ready;
      const token = typeof remote.token === 'function' ? await remote.token() : remote.token;
      const refspecs = branches.map((branch) => `+refs/heads/${branch}:refs/flotilla/queue/${branch}`);
      await runGit(['fetch', '--quiet', '--no-tags', remote.url, ...refspecs], {
        cwd: mirrorDir,
        env: { GIT_CONFIG_NOSYSTEM: '1', ...(token === undefined ? {} : authEnv(token)) },
      });
      const heads: Record<string, string> = {};
      for (const branch of branches) {
        heads[branch] = (await git(['rev-parse', `refs/flotilla/queue/${branch}^{commit}`])).stdout.trim();
      }
      return heads;
    },
    async contains(commit, ancestor) {
      return (await git(['merge-base', '--is-ancestor', ancestor, commit], [0, 1])).exitCode === 0;
    },
    async conflicts(base, head, labels) {
      const merged = await git(['merge-tree', '--write-tree', '--no-messages', base, head], [0, 1]);
      if (merged.exitCode === 0) return [];
      const [tree = '', ...info] = merged.stdout.split('\n');
      const paths = [...new Set(info.filter((line) => line !== '').map((line) => line.split('\t')[1] ?? ''))];
      return Promise.all(
        paths
          .filter((path) => path !== '')
          .map(async (path) => ({ path, hunks: await readConflictHunks(git, tree.trim(), path, labels) })),
      );
    },
    async changedApproved(head, base, updated) {
      const forkPoint = (await git(['merge-base', head, base])).stdout.trim();
      const patchID = async (from: string, to: string) => {
        const diff = (await git([...PINNED_DIFF_CONFIG, 'diff', ...DIFF_FLAGS, from, to, '--'])).stdout;
        return (await git(['patch-id', '--stable'], [0], diff)).stdout.trim().split(' ')[0] ?? '';
      };
      return (await patchID(forkPoint, head)) !== (await patchID(base, updated));
    },
  };
}
