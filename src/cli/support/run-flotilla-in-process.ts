import { runCli } from '../main.ts';
import { type FlotillaRun, TEST_GIT_IDENTITY_ENV } from './run-flotilla.ts';

/**
 * Test support: runs `flotilla …args` inside the test process, with `cwd` as the working directory and
 * stdout/stderr captured — the same command tree and exit code as the launcher, without a Node start per
 * call (spawning `bin/flotilla.js` costs about a second each). Calls must not overlap (they share the
 * process's working directory, streams and exit code); tests in one file run one at a time.
 */
export async function runFlotillaInProcess(cwd: string, args: readonly string[]): Promise<FlotillaRun> {
  const previousCwd = process.cwd();
  const previousEnv = Object.fromEntries(
    Object.keys(TEST_GIT_IDENTITY_ENV).map((name) => [name, process.env[name]]),
  );
  // runCli watches the streams for a closed reader for the rest of the process's life (a late EPIPE
  // included); here the process goes on, so what it added is removed afterwards.
  const errorListeners = [process.stdout.listeners('error'), process.stderr.listeners('error')] as const;
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  let stdout = '';
  let stderr = '';
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    };
  Object.assign(process.env, TEST_GIT_IDENTITY_ENV);
  process.chdir(cwd);
  process.exitCode = undefined;
  process.stdout.write = capture((text) => {
    stdout += text;
  }) as typeof process.stdout.write;
  process.stderr.write = capture((text) => {
    stderr += text;
  }) as typeof process.stderr.write;
  try {
    const code = await runCli(['node', 'flotilla', ...args]);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    for (const [stream, before] of [
      [process.stdout, errorListeners[0]],
      [process.stderr, errorListeners[1]],
    ] as const) {
      for (const listener of stream.listeners('error')) {
        if (!before.includes(listener)) stream.off('error', listener as (error: Error) => void);
      }
    }
    process.exitCode = undefined;
    process.chdir(previousCwd);
    for (const [name, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
