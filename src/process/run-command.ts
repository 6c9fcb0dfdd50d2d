import { spawn } from 'node:child_process';

export interface RunCommandOptions {
  cwd: string;
  /** Kill the command (its whole process group) after this many ms. Default: 60 s. */
  timeoutMs?: number | undefined;
  /** Written to stdin, then stdin is closed. Default: stdin is closed at once. */
  input?: string | undefined;
  /** Replaces the environment. Default: the parent's environment. */
  env?: NodeJS.ProcessEnv;
  /** Exit codes that count as success. Default: [0]. */
  okExitCodes?: readonly number[];
  /** Output beyond this many bytes per stream kills the command. Default: 256 MiB. */
  maxOutputBytes?: number;
  /** Aborting kills the command (its whole process group, as a timeout does); the error has `cancelled`. */
  signal?: AbortSignal;
  /** Sees every chunk as it arrives (live streaming); the result still holds the whole output. */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
  /** stdout as the bytes the command wrote (the string above is their UTF-8 decoding). */
  stdoutBytes: Buffer;
  stderr: string;
}

/** A command that could not start, exited with an unexpected code, was killed, or timed out. */
export class CommandError extends Error {
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Killed because the caller's abort signal fired. */
  readonly cancelled: boolean;
  readonly stdout: string;
  readonly stderr: string;

  constructor(fields: {
    command: string;
    exitCode: number | null;
    signal: NodeJS.Signals | null;
    timedOut: boolean;
    cancelled?: boolean;
    stdout: string;
    stderr: string;
    cause?: unknown;
    reason: string;
  }) {
    const tail = outputTail(`${fields.stdout}\n${fields.stderr}`);
    super(`${fields.command}: ${fields.reason}${tail === '' ? '' : `\n${tail}`}`, { cause: fields.cause });
    this.name = 'CommandError';
    this.command = fields.command;
    this.exitCode = fields.exitCode;
    this.signal = fields.signal;
    this.timedOut = fields.timedOut;
    this.cancelled = fields.cancelled ?? false;
    this.stdout = fields.stdout;
    this.stderr = fields.stderr;
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** After SIGTERM, a command gets this long before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** The last lines of a command's output, for error messages. */
export function outputTail(output: string, maxLines = 20, maxChars = 4_000): string {
  const lines = output.trim().split('\n');
  const tail = lines.slice(-maxLines).join('\n');
  return tail.length > maxChars ? `…${tail.slice(-maxChars)}` : tail;
}

/**
 * Runs a program without a shell (arguments are passed as-is) and captures its output. Rejects with a
 * CommandError unless it exits with an accepted code. The child gets its own process group so a timeout
 * kills everything it started, not only the direct child (a `sh -c` setup command spawns grandchildren
 * that would otherwise keep the output pipes open).
 */
export function runCommand(
  file: string,
  args: readonly string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const okExitCodes = options.okExitCodes ?? [0];
  const command = [file, ...args].join(' ');

  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let timedOut = false;
    let killReason: string | null = null;
    let killTimer: NodeJS.Timeout | null = null;
    let settled = false;

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const terminate = (reason: string) => {
      if (killReason !== null) return;
      killReason = reason;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };

    const timer = setTimeout(() => {
      timedOut = true;
      terminate(`timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      terminate('cancelled');
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes)
        return terminate(`produced more than ${maxOutputBytes} bytes of output`);
      stdout.push(chunk);
      options.onOutput?.('stdout', chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if (stderrBytes > maxOutputBytes)
        return terminate(`produced more than ${maxOutputBytes} bytes of output`);
      stderr.push(chunk);
      options.onOutput?.('stderr', chunk);
    });
    // A command that exits without reading its input makes the write fail with EPIPE; that is not our error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');

    const finish = (error: CommandError | null, exitCode: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (killTimer !== null && error === null) clearTimeout(killTimer);
      if (error !== null) reject(error);
      else {
        const stdoutBuffer = Buffer.concat(stdout);
        resolve({
          exitCode,
          stdout: stdoutBuffer.toString('utf8'),
          stdoutBytes: stdoutBuffer,
          stderr: Buffer.concat(stderr).toString('utf8'),
        });
      }
    };

    child.on('error', (cause) => {
      finish(
        new CommandError({
          command,
          exitCode: null,
          signal: null,
          timedOut,
          cancelled,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          cause,
          reason: `could not run (${cause.message})`,
        }),
        -1,
      );
    });

    child.on('close', (code, signal) => {
      const out = Buffer.concat(stdout).toString('utf8');
      const err = Buffer.concat(stderr).toString('utf8');
      if (killReason !== null || code === null || !okExitCodes.includes(code)) {
        const reason = killReason ?? (code === null ? `killed by ${signal}` : `exited with code ${code}`);
        finish(
          new CommandError({
            command,
            exitCode: code,
            signal,
            timedOut,
            cancelled,
            stdout: out,
            stderr: err,
            reason,
          }),
          code ?? -1,
        );
        return;
      }
      finish(null, code);
    });
  });
}

/** Variables that would point git at another repository or index than the one in `cwd`. */
export const GIT_LOCATION_VARIABLES: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_PREFIX',
  'GIT_NAMESPACE',
];

/** `-c` settings that pin what user or repository config could change about git's diff output. */
export const PINNED_DIFF_CONFIG: readonly string[] = [
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '-c',
  'diff.relative=false',
  '-c',
  'core.quotePath=true',
];

/**
 * git's death when another git is writing or removing a linked worktree's admin entry
 * (`.git/worktrees/<id>/`) while it reads it: `fatal: failed to read <dir>/worktrees/<id>/commondir: …`.
 * Every command that lists worktrees hits it (`worktree list/add`, `branch -D`, `checkout -B`): a spare
 * being prepared in the background, a checks worktree, another Flotilla command. It dies before changing
 * anything, and the entry is whole (or gone) a moment later.
 */
const WORKTREE_IN_FLUX = /^fatal: failed to read \S*worktrees\/[^/\s]+\/(?:commondir|gitdir|HEAD)\b/m;

/** Waits before each retry of a git command that met a worktree entry in flux: three, ~0.4 s in all. */
const IN_FLUX_RETRY_DELAYS_MS: readonly number[] = [25, 100, 250];

/** Whether `error` is git dying on a linked worktree's admin entry that another git is writing or removing. */
export function isWorktreeInFlux(error: unknown): boolean {
  return error instanceof CommandError && error.exitCode === 128 && WORKTREE_IN_FLUX.test(error.stderr);
}

export interface RunGitOptions extends Omit<RunCommandOptions, 'env'> {
  env?: Record<string, string> | undefined;
  /**
   * Called before each retry after git met a worktree entry in flux (`attempt` from 1), instead of the
   * default short sleep; tests use it to finish the entry deterministically. At most three retries.
   */
  waitForWorktreeEntry?: (attempt: number) => Promise<void>;
}

/**
 * Runs git in `cwd`. Inherited variables that redirect git (set when Flotilla itself runs from a git hook)
 * are removed, and prompts are disabled so git never waits for a terminal. A command that died on a linked
 * worktree's entry in flux (see WORKTREE_IN_FLUX) is run again a moment later: readers tolerate the other
 * git's work rather than every caller in every floor sharing one lock.
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<CommandResult> {
  const { waitForWorktreeEntry, ...rest } = options;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of GIT_LOCATION_VARIABLES) delete env[name];
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' }, rest.env);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runCommand('git', args, { ...rest, env });
    } catch (error) {
      const delayMs = IN_FLUX_RETRY_DELAYS_MS[attempt - 1];
      if (delayMs === undefined || !isWorktreeInFlux(error) || rest.signal?.aborted) throw error;
      await (waitForWorktreeEntry?.(attempt) ?? new Promise((resolve) => setTimeout(resolve, delayMs)));
    }
  }
}
