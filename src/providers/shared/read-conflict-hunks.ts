import type { runGit } from '../../process/run-command.ts';

/**
 * The blocks git marked in the merged tree's copy of `path` (`<<<<<<<` to `>>>>>>>`), each side's commit SHA
 * in the markers replaced by its label (`labels`: SHA → e.g. the branch name). Empty when git wrote no
 * markers (a file deleted on one side, a binary file).
 */
export async function readConflictHunks(
  git: (args: string[], okExitCodes?: number[]) => ReturnType<typeof runGit>,
  tree: string,
  path: string,
  labels: Record<string, string>,
): Promise<string[]> {
  const blob = await git(['cat-file', '-p', `${tree}:${path}`], [0, 128]);
  if (blob.exitCode !== 0) return [];
  const hunks: string[] = [];
  let current: string[] | null = null;
  for (const line of blob.stdout.split('\n')) {
    if (line.startsWith('<<<<<<< ')) current = [];
    if (current === null) continue;
    current.push(
      /^(<<<<<<<|>>>>>>>) /.test(line)
        ? line.replace(/ ([0-9a-f]{40}|[0-9a-f]{64})(?=:|$)/, (match, sha: string) =>
            labels[sha] === undefined ? match : ` ${labels[sha]}`,
          )
        : line,
    );
    if (line.startsWith('>>>>>>> ')) {
      hunks.push(`${current.join('\n')}\n`);
      current = null;
    }
  }
  return hunks;
}
