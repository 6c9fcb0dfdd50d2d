import { runGit } from '../../process/run-command.ts';

/** The top level of the git working tree containing `cwd`, or null outside a git repository. */
export async function findRepoRoot(cwd: string): Promise<string | null> {
  try {
    const root = (await runGit(['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
    return root === '' ? null : root;
  } catch {
    return null;
  }
}
