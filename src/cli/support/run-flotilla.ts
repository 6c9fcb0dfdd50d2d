import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const launcher = fileURLToPath(new URL('../../../bin/flotilla.js', import.meta.url));

/** Identity for git commands the CLI runs in tests (temp repos have no user config). */
export const TEST_GIT_IDENTITY_ENV = {
  GIT_AUTHOR_NAME: 'Flotilla Test',
  GIT_AUTHOR_EMAIL: 'test@flotilla.invalid',
  GIT_COMMITTER_NAME: 'Flotilla Test',
  GIT_COMMITTER_EMAIL: 'test@flotilla.invalid',
};

export interface FlotillaRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Test support: runs `node bin/flotilla.js …args` in `cwd` as a child process (the real launcher, the real
 * exit code), optionally feeding `input` on stdin.
 */
export function runFlotilla(
  cwd: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<FlotillaRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [launcher, ...args], {
      cwd,
      env: { ...process.env, ...TEST_GIT_IDENTITY_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
