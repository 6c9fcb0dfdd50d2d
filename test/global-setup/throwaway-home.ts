import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: the whole run gets a throwaway, empty HOME, which every process the tests start
 * inherits — vitest's workers, and through them the agents (the Claude SDK's CLI and its Bash tool's shells,
 * codex, the CLI runtimes' programs, `flotilla` run by tests) and tmux's shells. The tests then never depend
 * on the developer's start-up files: on a machine whose `~/.bashrc` runs `pyenv init`, each shell the Claude
 * CLI starts took pyenv's lock file, and a test's clean-up killing one mid-way left the lock behind — every
 * later login shell waited 60 s and the real-SDK tests timed out. What the tests set for the agents' own
 * config (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME per run) is unaffected; a test that needs the real
 * home reads `os.userInfo().homedir` (the password database, not HOME). It holds one file, a git identity
 * (TEST_GIT_CONFIG): tests commit in their temporary repositories, and a developer's global git config —
 * identity, signing, hooks — is not theirs to depend on either.
 */
export default function setup(): () => void {
  return startThrowawayHome();
}

/** The throwaway home's `.gitconfig`: who the tests' own commits are by. */
export const TEST_GIT_CONFIG = '[user]\n\tname = Flotilla Test\n\temail = test@flotilla.invalid\n';

/**
 * What `setup` does: HOME set to a new directory holding only TEST_GIT_CONFIG; the teardown restores HOME
 * and removes the directory.
 */
export function startThrowawayHome(): () => void {
  const previous = process.env.HOME;
  // Beside the tests' temporary repositories, never a parent of them: the sandbox hides Flotilla's HOME.
  const home = mkdtempSync(join(tmpdir(), 'flotilla-test-home-'));
  writeFileSync(join(home, '.gitconfig'), TEST_GIT_CONFIG);
  process.env.HOME = home;
  return () => {
    if (previous === undefined) delete process.env.HOME;
    else process.env.HOME = previous;
    rmSync(home, { recursive: true, force: true });
  };
}
