import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../process/run-command.ts';
import { readWorktreeGitFacts, type WorktreeGitFacts } from './read-worktree-git-facts.ts';

/** What the sandbox binds for git: `dotGitFile` read-only over `<worktree>/.git`, `gitDir` read-write. */
export interface SandboxGitDir {
  gitDir: string;
  dotGitFile: string;
}

/** The identity commits get when the repository sets none (a machine without a global git config). */
export const NEUTRAL_IDENTITY = { name: 'Flotilla Agent', email: 'agent@flotilla.invalid' };

/** The commit identity the sandbox's git directory gets. */
export interface GitIdentity {
  name: string;
  email: string;
}

export interface PrepareSandboxGitDirOptions {
  /**
   * The identity for commits in `worktree`; default: `readGitIdentity` (one git process). The sandbox passes
   * its per-repository cache (create-git-identity-cache.ts).
   */
  readIdentity?: (worktree: string) => Promise<GitIdentity>;
}

/**
 * A git directory of the sandbox's own for `worktree`, under `gitStateDir`: objects shared read-only with the
 * repository through `objects/info/alternates`, its branches and tags as packed refs, HEAD on the worktree's
 * branch (or commit), a copy of the worktree's index, `info/exclude`, and a minimal config (the repository's
 * `user.name`/`user.email`, or a neutral identity). git inside the sandbox commits here; the repository's
 * `.git` (hooks, config, refs, other worktrees' gitdirs) never changes. Built once: a second sandbox of the
 * same run finds it and keeps the commits the first one made. What it is built from is read from git's own
 * files (read-worktree-git-facts.ts), and asked of git when they are anything unusual.
 */
export async function prepareSandboxGitDir(
  worktree: string,
  gitStateDir: string,
  options: PrepareSandboxGitDirOptions = {},
): Promise<SandboxGitDir> {
  const gitDir = join(gitStateDir, 'git');
  const dotGitFile = join(gitStateDir, 'dot-git');
  if (existsSync(join(gitDir, 'HEAD'))) return { gitDir, dotGitFile };

  const [facts, identity] = await Promise.all([
    readWorktreeGitFacts(worktree) ?? askGit(worktree),
    (options.readIdentity ?? readGitIdentity)(worktree),
  ]);
  const { ownGitDir, commonDir, objectFormat, head, branch, refs } = facts;

  // A dozen small files, written synchronously: each takes microseconds, where the promise API's
  // thread-pool round trips would cost more than the writing (read-worktree-git-facts.ts).
  mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
  mkdirSync(join(gitDir, 'refs', 'heads'), { recursive: true });
  mkdirSync(join(gitDir, 'refs', 'tags'), { recursive: true });
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), `${join(commonDir, 'objects')}\n`);
  writeFileSync(join(gitDir, 'packed-refs'), refs === '' ? '' : `${refs}\n`);
  if (branch !== '') writeLooseRef(gitDir, branch, head);
  copyIfPresent(join(ownGitDir, 'index'), join(gitDir, 'index'));
  copyIfPresent(join(commonDir, 'info', 'exclude'), join(gitDir, 'info', 'exclude'));
  copyIfPresent(join(commonDir, 'shallow'), join(gitDir, 'shallow'));
  writeFileSync(join(gitDir, 'config'), buildGitConfig({ ...identity, objectFormat }));
  // HEAD last: its presence marks the directory complete.
  writeFileSync(join(gitDir, 'HEAD'), branch === '' ? `${head}\n` : `ref: ${branch}\n`);
  writeFileSync(dotGitFile, `gitdir: ${gitDir}\n`);
  return { gitDir, dotGitFile };
}

/** The worktree's git facts from git itself: one round of git processes, side by side. */
async function askGit(worktree: string): Promise<WorktreeGitFacts> {
  const git = async (args: string[], okExitCodes: number[] = [0]) =>
    (await runGit(args, { cwd: worktree, okExitCodes })).stdout.trim();
  const [located, branch, refs] = await Promise.all([
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
  ]);
  const [ownGitDir, commonDir, objectFormat = 'sha1', head] = located.split('\n');
  if (ownGitDir === undefined || commonDir === undefined || head === undefined) {
    throw new Error(`sandbox: ${worktree} is not a git worktree with a commit`);
  }
  return {
    ownGitDir,
    commonDir,
    objectFormat: objectFormat === 'sha256' ? 'sha256' : 'sha1',
    head,
    branch,
    refs,
  };
}

/** `user.name` and `user.email` as git sees them in `worktree` (one git process), else NEUTRAL_IDENTITY's. */
export async function readGitIdentity(worktree: string): Promise<GitIdentity> {
  const { stdout } = await runGit(['config', '--get-regexp', '^user\\.(name|email)$'], {
    cwd: worktree,
    okExitCodes: [0, 1],
  });
  const configured = new Map(
    stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const),
  );
  return {
    name: configured.get('user.name') || NEUTRAL_IDENTITY.name,
    email: configured.get('user.email') || NEUTRAL_IDENTITY.email,
  };
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

function writeLooseRef(gitDir: string, ref: string, sha: string): void {
  const path = join(gitDir, ...ref.split('/'));
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${sha}\n`);
}

function copyIfPresent(from: string, to: string): void {
  try {
    copyFileSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
