import { runGit } from '../../process/run-command.ts';

/**
 * The commit SHA a revision (branch ref or SHA) names. Throws an error naming the revision when it does not
 * exist or is not a commit, instead of git's terse "Needed a single revision".
 */
export async function resolveCommit(
  repoRoot: string,
  revision: string,
  options: { timeoutMs?: number } = {},
): Promise<string> {
  // `--end-of-options` keeps a revision starting with `-` from being read as an option.
  const result = await runGit(
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
    {
      cwd: repoRoot,
      timeoutMs: options.timeoutMs,
      okExitCodes: [0, 1],
    },
  );
  const sha = result.stdout.trim();
  if (result.exitCode !== 0 || sha === '') {
    throw new Error(`"${revision}" is not a commit in ${repoRoot}`);
  }
  return sha;
}
