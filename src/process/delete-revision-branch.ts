import { runGit } from './run-command.ts';

/** What happened to a revision branch Flotilla was asked to delete (`merge --delete-branch`, `branches prune`). */
export type DeleteBranchOutcome = 'deleted' | 'gone' | 'checked-out' | 'moved';

/**
 * Deletes `refs/heads/<branch>` only if it still points at `expectedSHA` (a compare-and-swap: a branch that
 * moved since is someone's new work) and no worktree has it checked out (git would be left on a missing
 * branch). Never touches a working tree.
 */
export async function deleteRevisionBranch(
  repoRoot: string,
  branch: string,
  expectedSHA: string,
): Promise<DeleteBranchOutcome> {
  const ref = `refs/heads/${branch}`;
  const current = await runGit(['rev-parse', '--verify', '--quiet', ref], {
    cwd: repoRoot,
    okExitCodes: [0, 1],
  });
  if (current.exitCode !== 0) return 'gone';
  if (current.stdout.trim() !== expectedSHA) return 'moved';
  const { stdout } = await runGit(['worktree', 'list', '--porcelain'], { cwd: repoRoot });
  if (stdout.split('\n').includes(`branch ${ref}`)) return 'checked-out';
  const deleted = await runGit(['update-ref', '-d', ref, expectedSHA], {
    cwd: repoRoot,
    okExitCodes: [0, 1, 128],
  });
  return deleted.exitCode === 0 ? 'deleted' : 'moved';
}
