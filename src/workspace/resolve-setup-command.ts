import { access } from 'node:fs/promises';
import { join } from 'node:path';

/** The value of the setup command setting that disables setup. */
export const NO_SETUP_COMMAND = 'none';

/** Lockfile → install command, in the order they are looked for (the first one present wins). */
export const LOCKFILE_SETUP_COMMANDS: ReadonlyArray<{ lockfile: string; command: string }> = [
  { lockfile: 'package-lock.json', command: 'npm ci' },
  { lockfile: 'npm-shrinkwrap.json', command: 'npm ci' },
  { lockfile: 'yarn.lock', command: 'yarn install --frozen-lockfile' },
  { lockfile: 'pnpm-lock.yaml', command: 'pnpm install --frozen-lockfile' },
];

/**
 * The shell command line to run in a new worktree, or null for none. A configured command wins; `none`
 * disables setup; when nothing is configured, the package manager is detected from the lockfile checked
 * out in the worktree (no lockfile: nothing to install).
 */
export async function resolveSetupCommand(
  configured: string | null | undefined,
  worktreePath: string,
): Promise<string | null> {
  const trimmed = configured?.trim() ?? '';
  if (trimmed === NO_SETUP_COMMAND) return null;
  if (trimmed !== '') return trimmed;
  for (const { lockfile, command } of LOCKFILE_SETUP_COMMANDS) {
    if (await exists(join(worktreePath, lockfile))) return command;
  }
  return null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
