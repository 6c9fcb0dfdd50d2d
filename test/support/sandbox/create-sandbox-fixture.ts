import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from '../../../src/process/run-command.ts';
import type {
  SandboxedCommand,
  SandboxRequest,
  SandboxSettings,
} from '../../../src/sandbox/sandbox-types.ts';
import { createTempDir } from '../shared/create-temp-dir.ts';
import { createTempGitRepo, type TempGitRepo } from '../shared/create-temp-git-repo.ts';

/**
 * A repository with two agent worktrees (`.worktrees/a`, `.worktrees/b`), Flotilla's state, and a fake home
 * with a planted SSH key, all under directories the sandbox would show (`allowRead` of their parent, so a
 * guarantee that breaks shows up instead of hiding behind the private /tmp).
 */
export interface SandboxFixture {
  repo: TempGitRepo;
  base: string;
  home: string;
  worktreeA: string;
  worktreeB: string;
  baseCommit: string;
  settings: SandboxSettings;
  request(overrides?: Partial<SandboxRequest>): SandboxRequest;
  cleanup(): Promise<void>;
}

export const PLANTED_KEY = 'PLANTED-PRIVATE-KEY-do-not-read';
export const TEST_PATH = '/usr/local/bin:/usr/bin:/bin';

export async function createSandboxFixture(): Promise<SandboxFixture> {
  const repo = await createTempGitRepo();
  const baseCommit = await repo.commit('init', { 'README.md': 'readable\n', 'src/app.txt': 'app\n' });
  const dir = createTempDir('flotilla-sandbox-');
  const base = dir.path;
  const home = join(base, 'home');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), PLANTED_KEY);
  await mkdir(join(repo.root, '.flotilla'), { recursive: true });
  await writeFile(join(repo.root, '.flotilla', 'flotilla.db'), 'flotilla state');
  const worktreeA = join(repo.root, '.worktrees', 'a');
  const worktreeB = join(repo.root, '.worktrees', 'b');
  await repo.git(['worktree', 'add', '--quiet', '-b', 'flotilla/a', worktreeA]);
  await repo.git(['worktree', 'add', '--quiet', '-b', 'flotilla/b', worktreeB]);
  await writeFile(join(worktreeB, 'secret-of-b.txt'), 'b only');
  const settings: SandboxSettings = {
    mode: 'on',
    networkAllow: [],
    passEnv: [],
    allowRead: [base, repo.root],
    denyRead: [],
  };
  return {
    repo,
    base,
    home,
    worktreeA,
    worktreeB,
    baseCommit,
    settings,
    request: (overrides = {}) => ({
      repoRoot: repo.root,
      cwd: worktreeA,
      writable: [worktreeA],
      env: { PATH: TEST_PATH, LANG: 'C.UTF-8' },
      network: [],
      programs: [],
      ...overrides,
    }),
    cleanup: async () => {
      await repo.cleanup();
      dir.remove();
    },
  };
}

/** Runs a wrapped command to its end (any exit code), then disposes it. */
export async function runSandboxed(
  command: SandboxedCommand,
  options: { cwd?: string; input?: string } = {},
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  try {
    const result = await runCommand(command.file, command.args, {
      cwd: options.cwd ?? '/',
      env: command.env,
      okExitCodes: Array.from({ length: 256 }, (_, code) => code),
      timeoutMs: 30_000,
      ...(options.input !== undefined && { input: options.input }),
    });
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  } finally {
    await command.dispose();
  }
}
