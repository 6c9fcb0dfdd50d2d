import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../process/run-command.ts';

/** What the sandbox binds for git: `dotGitFile` read-only over `<worktree>/.git`, `gitDir` read-write. */
export interface SandboxGitDir {
  gitDir: string;
  dotGitFile: string;
}

/** The identity commits get when the repository sets none (a machine without a global git config). */
export const NEUTRAL_IDENTITY = { name: 'Flotilla Agent', email: 'agent@flotilla.invalid' };

/**
 * A git directory of the sandbox's own for `worktree`, under `gitStateDir`: objects shared read-only with the
 * repository through `objects/info/alternates`, its branches and tags as packed refs, HEAD on the worktree's
 * branch (or commit), a copy of the worktree's index, `info/exclude`, and a minimal config (the repository's
 * `user.name`/`user.email`, or a neutral identity). git inside the sandbox commits here; the repository's
 * `.git` (hooks, config, refs, other worktrees' gitdirs) never changes. Built once: a second sandbox of the
 * same run finds it and keeps the commits the first one made.
 */
export async function prepareSandboxGitDir(worktree: string, gitStateDir: string): Promise<SandboxGitDir> {
  const gitDir = join(gitStateDir, 'git');
  const dotGitFile = join(gitStateDir, 'dot-git');
  if (await exists(join(gitDir, 'HEAD'))) return { gitDir, dotGitFile };

  const git = async (args: string[], okExitCodes: number[] = [0]) =>
    (await runGit(args, { cwd: worktree, okExitCodes })).stdout.trim();
  // One round of git processes, side by side: this runs before every sandboxed run that may commit.
  const [located, branch, refs, identity] = await Promise.all([
    git([
      'rev-parse',
      '--path-format=absolute',
      '--git-dir',
      '--git-common-dir',
      '--show-object-format',
      'HEAD',
    ]),
    git(['symbolic-ref', '--quiet', 'HEAD'], [0, 1]),
    git(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags']),
    git(['config', '--get-regexp', '^user\\.(name|email)$'], [0, 1]),
  ]);
  const [ownGitDir, commonDir, objectFormat = 'sha1', head] = located.split('\n');
  if (ownGitDir === undefined || commonDir === undefined || head === undefined) {
    throw new Error(`sandbox: ${worktree} is not a git worktree with a commit`);
  }
  const configured = new Map(
    identity
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const),
  );
  const name = configured.get('user.name') || NEUTRAL_IDENTITY.name;
  const email = configured.get('user.email') || NEUTRAL_IDENTITY.email;

  await mkdir(join(gitDir, 'objects', 'info'), { recursive: true });
  await mkdir(join(gitDir, 'refs', 'heads'), { recursive: true });
  await mkdir(join(gitDir, 'refs', 'tags'), { recursive: true });
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'objects', 'info', 'alternates'), `${join(commonDir, 'objects')}\n`);
  await writeFile(join(gitDir, 'packed-refs'), refs === '' ? '' : `${refs}\n`);
  if (branch !== '') await writeLooseRef(gitDir, branch, head);
  await copyIfPresent(join(ownGitDir, 'index'), join(gitDir, 'index'));
  await copyIfPresent(join(commonDir, 'info', 'exclude'), join(gitDir, 'info', 'exclude'));
  await copyIfPresent(join(commonDir, 'shallow'), join(gitDir, 'shallow'));
  await writeFile(join(gitDir, 'config'), buildGitConfig({ name, email, objectFormat }));
  // HEAD last: its presence marks the directory complete.
  await writeFile(join(gitDir, 'HEAD'), branch === '' ? `${head}\n` : `ref: ${branch}\n`);
  await writeFile(dotGitFile, `gitdir: ${gitDir}\n`);
  return { gitDir, dotGitFile };
}

/** The sandbox git directory's config: nothing from the repository's but the identity and object format. */
export function buildGitConfig(fields: { name: string; email: string; objectFormat: string }): string {
  const sha256 = fields.objectFormat === 'sha256';
  return [
    '[core]',
    `\trepositoryformatversion = ${sha256 ? 1 : 0}`,
    '\tbare = false',
    ...(sha256 ? ['[extensions]', '\tobjectformat = sha256'] : []),
    '[user]',
    `\tname = ${quoteConfigValue(fields.name)}`,
    `\temail = ${quoteConfigValue(fields.email)}`,
    '[commit]',
    '\tgpgsign = false',
    '',
  ].join('\n');
}

function quoteConfigValue(value: string): string {
  return `"${value
    .replace(/[\r\n]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')}"`;
}

async function writeLooseRef(gitDir: string, ref: string, sha: string): Promise<void> {
  const path = join(gitDir, ...ref.split('/'));
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, `${sha}\n`);
}

async function copyIfPresent(from: string, to: string): Promise<void> {
  if (await exists(from)) await copyFile(from, to);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
