import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FlotillaRun, runFlotilla, TEST_GIT_IDENTITY_ENV } from '../../src/cli/support/run-flotilla.ts';
import { agentProcessesOf } from './agent-processes-of.ts';

/** No model credential of any kind: a dry run must not need one. */
export const NO_CREDENTIALS_ENV: NodeJS.ProcessEnv = {
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_AUTH_TOKEN: '',
  CLAUDE_CODE_OAUTH_TOKEN: '',
  ANTHROPIC_BASE_URL: '',
};

export const APPROVED_SPEC = `---
status: approved
---
# My feature

A greeting for new users.

## Acceptance criteria

1. The repository says hello.
`;

export interface ScriptedRepository {
  root: string;
  /** `flotilla …args` in the repository (the real launcher, no credentials), with its exit code and output. */
  flotilla(args: readonly string[]): Promise<FlotillaRun>;
  /** Ends agents a failed test left running and removes the repository. */
  remove(): Promise<void>;
}

/**
 * What the README's Quick start sets up before `flotilla run`: a fresh repository, `flotilla init --scripted`,
 * an approved spec at docs/specs/my-feature.md, all committed on `main`. `prepare` runs before the commit
 * (edit the config or the scenario there).
 */
export async function initScriptedRepository(
  prepare?: (root: string) => Promise<void>,
): Promise<ScriptedRepository> {
  const root = await mkdtemp(join(tmpdir(), 'flotilla-scripted-'));
  const env = { ...TEST_GIT_IDENTITY_ENV, ...NO_CREDENTIALS_ENV };
  const flotilla = (args: readonly string[]) => runFlotilla(root, args, { env });
  const remove = async () => {
    for (const pid of agentProcessesOf(root)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await rm(root, { recursive: true, force: true });
  };
  try {
    execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: root });
    const init = await flotilla(['init', '--scripted']);
    if (init.code !== 0) throw new Error(`flotilla init --scripted failed:\n${init.stdout}${init.stderr}`);
    await mkdir(join(root, 'docs/specs'), { recursive: true });
    await writeFile(join(root, 'docs/specs/my-feature.md'), APPROVED_SPEC);
    await prepare?.(root);
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', ['commit', '--quiet', '-m', 'Spec: my feature'], {
      cwd: root,
      env: { ...process.env, ...TEST_GIT_IDENTITY_ENV },
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { root, flotilla, remove };
}
