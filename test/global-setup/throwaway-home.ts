import { mkdtempSync, rmSync } from 'node:fs';
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
 * home reads `os.userInfo().homedir` (the password database, not HOME).
 */
export default function setup(): () => void {
  return useThrowawayHome();
}

/** What `setup` does: HOME set to a new empty directory; the teardown restores it and removes the directory. */
export function useThrowawayHome(): () => void {
  const previous = process.env.HOME;
  // Beside the tests' temporary repositories, never a parent of them: the sandbox hides Flotilla's HOME.
  const home = mkdtempSync(join(tmpdir(), 'flotilla-test-home-'));
  process.env.HOME = home;
  return () => {
    if (previous === undefined) delete process.env.HOME;
    else process.env.HOME = previous;
    rmSync(home, { recursive: true, force: true });
  };
}
