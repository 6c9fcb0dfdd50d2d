import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runGit } from '../../../src/process/run-command.ts';

/** Test support: a real git repository in a temporary directory. */
export interface TempGitRepo {
  root: string;
  git(args: string[], cwd?: string): Promise<string>;
  /** Writes files (creating directories) relative to `cwd` (default: the repo root). */
  write(files: Record<string, string | Buffer>, cwd?: string): Promise<void>;
  /** Writes the files, stages everything and commits; returns the new commit SHA. */
  commit(message: string, files?: Record<string, string | Buffer>, cwd?: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** Identity and settings that make commits work on a machine without a global git config. */
const TEST_GIT_ENV = {
  GIT_AUTHOR_NAME: 'Flotilla Test',
  GIT_AUTHOR_EMAIL: 'test@flotilla.invalid',
  GIT_COMMITTER_NAME: 'Flotilla Test',
  GIT_COMMITTER_EMAIL: 'test@flotilla.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

export async function createTempGitRepo(options: { defaultBranch?: string } = {}): Promise<TempGitRepo> {
  const root = await mkdtemp(join(tmpdir(), 'flotilla-git-'));
  const git = async (args: string[], cwd = root) => (await runGit(args, { cwd, env: TEST_GIT_ENV })).stdout;
  const write = async (files: Record<string, string | Buffer>, cwd = root) => {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(cwd, path)), { recursive: true });
      await writeFile(join(cwd, path), content);
    }
  };
  await git(['init', '--quiet', '--initial-branch', options.defaultBranch ?? 'main']);
  await git(['config', 'commit.gpgsign', 'false']);
  return {
    root,
    git,
    write,
    async commit(message, files = {}, cwd = root) {
      await write(files, cwd);
      await git(['add', '-A'], cwd);
      await git(['commit', '--quiet', '--allow-empty', '-m', message], cwd);
      return (await git(['rev-parse', 'HEAD'], cwd)).trim();
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
