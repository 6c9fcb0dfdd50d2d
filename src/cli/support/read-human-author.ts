import { userInfo } from 'node:os';
import { runGit } from '../../process/run-command.ts';

/**
 * Who a human edit (comment, review) is recorded as: the git author name of the repository (the identity
 * the user's own commits get), else the login name. Never the engine's author, so the two stay apart.
 */
export async function readHumanAuthor(repoRoot: string): Promise<string> {
  const ident = await runGit(['var', 'GIT_AUTHOR_IDENT'], { cwd: repoRoot, okExitCodes: [0, 128] }).catch(
    () => null,
  );
  const name = ident?.exitCode === 0 ? ident.stdout.replace(/\s*<.*$/s, '').trim() : '';
  if (name !== '') return name;
  try {
    return userInfo().username || 'you';
  } catch {
    return 'you';
  }
}
