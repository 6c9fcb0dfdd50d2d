import { runGit } from '../process/run-command.ts';

/**
 * The files git tracks at the checkout's HEAD, relative to the repository root, without Flotilla's own
 * folders: what the conflict estimate matches an item's words against (issue #30 §4).
 */
export async function listTrackedFiles(repoRoot: string): Promise<string[]> {
  const { stdout } = await runGit(
    ['ls-files', '-z', '--', ':(top,exclude).worktrees', ':(top,exclude).flotilla'],
    { cwd: repoRoot, timeoutMs: 30_000 },
  );
  return stdout.split('\0').filter((path) => path !== '');
}
