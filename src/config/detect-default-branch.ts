import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

async function git(repoRoot: string, args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync('git', args, { cwd: repoRoot, timeout: 10_000 });
    const text = stdout.trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

const ORIGIN_PREFIX = 'refs/remotes/origin/';

/**
 * The branch work is based on when the config names none: the remote's default (`origin/HEAD`), else a local
 * `main` or `master`, else the branch checked out in repoRoot (an unborn branch counts), else `main`. The
 * checked-out branch comes last: a user on a feature branch must not have it taken for the default (work
 * would be based on it and `flotilla merge` would merge into it).
 */
export async function detectDefaultBranch(repoRoot: string): Promise<string> {
  const remoteHead = await git(repoRoot, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (remoteHead?.startsWith(ORIGIN_PREFIX)) return remoteHead.slice(ORIGIN_PREFIX.length);
  for (const conventional of ['main', 'master']) {
    if (await git(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${conventional}`]))
      return conventional;
  }
  const current = await git(repoRoot, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return current ?? 'main';
}
