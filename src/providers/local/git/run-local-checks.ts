import { appendFile, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CommandError, GIT_LOCATION_VARIABLES, runCommand, runGit } from '../../../process/run-command.ts';
import { messageOf } from '../../../shared/message-of.ts';
import { buildBranchRef } from '../../shared/build-branch-ref.ts';
import { CHECKS_WORKTREE_PREFIX, localScratchDir } from '../../shared/local-scratch-dir.ts';
import { resolveCommit } from '../../shared/resolve-commit.ts';

/** What to check: the revision's head commit (preferred: it cannot move underneath) or a branch's head. */
export type ChecksTarget =
  | { headSHA: string; branchName?: undefined }
  | { branchName: string; headSHA?: undefined };

export type RunLocalChecksParams = ChecksTarget & {
  repoRoot: string;
  /**
   * The user's checks command line, run with `sh -c` at the root of a fresh checkout of the commit. Set-up
   * the checks need (dependencies, builds) is part of it, e.g. `npm ci && npm test`: the checkout has only
   * what is committed. Null or blank: nothing to run, the checks pass.
   */
  command: string | null | undefined;
  /** The command and everything it started are killed after this long; that is a failure. */
  timeoutMs: number;
  /** Created if missing; the full log of every run is kept here. */
  logsDir: string;
  /** Default: `checks-<sha12>-<timestamp>.log`. */
  logFileName?: string;
  /** The command's environment. Default: this process's. Variables that redirect git are always removed. */
  env?: NodeJS.ProcessEnv;
  /**
   * Where the temporary worktree goes (created if missing). Default: `.flotilla/tmp/` in the repository,
   * where a start after a crash finds and reaps what a killed run left (`reapLocalScratch`).
   */
  worktreeParentDir?: string | undefined;
  /**
   * Aborting kills the command and everything it started; the worktree is still removed, then the call
   * rejects with the signal's reason (no result: the checks neither passed nor failed).
   */
  signal?: AbortSignal;
};

export interface LocalChecksResult {
  status: 'success' | 'failure';
  /** Why it failed (exit code or timeout, then the last lines of output); null on success. */
  reason: string | null;
  /** The full log; null when no command is configured. */
  logPath: string | null;
  /** Wall time including the worktree's creation and removal. */
  durationMs: number;
}

export interface RunLocalChecksDeps {
  runCommand: typeof runCommand;
}

/**
 * Set in the checks command's environment (inherited by everything it starts) to its worktree's path: how a
 * start after a crash recognises checks processes a killed Flotilla left running (`reapOrphanProcesses`).
 */
export const CHECKS_WORKTREE_VARIABLE = 'FLOTILLA_CHECKS_WORKTREE';

const GIT_TIMEOUT_MS = 2 * 60_000;
const REASON_LINES = 10;
const REASON_MAX_CHARS = 1_500;
/**
 * `$1` log path, `$2` the user's command. Output goes straight to the log (stdout and stderr interleaved as
 * written, nothing buffered in memory). Once the command is done, whatever it left running in the process
 * group (a server started with `&`) is terminated, so nothing outlives the worktree.
 */
const WRAPPER = [
  'exec >>"$1" 2>&1 </dev/null',
  'sh -c "$2"',
  'status=$?',
  "trap '' TERM",
  'kill -s TERM 0 2>/dev/null',
  'exit $status',
].join('\n');

/**
 * The local pipeline (docs/architecture.md §Local provider): runs the configured checks command in a temporary
 * detached worktree of the revision's commit, never in the user's checkout, and reports success or failure
 * with the log kept under `logsDir`. The worktree is removed whatever happens (success, failure, timeout,
 * cancellation, exception). Throws only when cancelled (`params.signal`), or when the checks could not be set up (unknown commit, unwritable logs dir, git
 * failing to create the worktree) or an unexpected error occurred; a command that fails, cannot start or
 * times out is a `failure` result.
 */
export async function runLocalChecks(
  params: RunLocalChecksParams,
  deps: RunLocalChecksDeps = { runCommand },
): Promise<LocalChecksResult> {
  const started = Date.now();
  const command = params.command?.trim() ?? '';
  if (command === '')
    return { status: 'success', reason: null, logPath: null, durationMs: Date.now() - started };

  const { repoRoot, signal } = params;
  signal?.throwIfAborted();
  const revision = params.headSHA ?? buildBranchRef(params.branchName ?? '');
  const sha = await resolveCommit(repoRoot, revision, { timeoutMs: GIT_TIMEOUT_MS });

  await mkdir(params.logsDir, { recursive: true });
  const stamp = new Date(started).toISOString().replace(/[:.]/g, '-');
  const logPath = join(params.logsDir, params.logFileName ?? `checks-${sha.slice(0, 12)}-${stamp}.log`);
  await writeFile(
    logPath,
    `[flotilla] checks for ${params.branchName ?? sha} at ${sha}\n[flotilla] $ ${command}\n`,
  );

  // mkdtemp gives a unique, empty directory (git accepts an empty one), so concurrent checks never collide
  // and `git worktree list` shows which run a worktree belongs to.
  const parentDir = params.worktreeParentDir ?? localScratchDir(repoRoot);
  await mkdir(parentDir, { recursive: true });
  const worktreePath = await mkdtemp(join(parentDir, CHECKS_WORKTREE_PREFIX));
  let outcome: { status: 'success' | 'failure'; what: string };
  try {
    await addWorktree(repoRoot, worktreePath, sha);
    signal?.throwIfAborted();
    outcome = await runCommandInWorktree(deps, { ...params, command, worktreePath, logPath });
  } catch (error) {
    if (signal?.aborted) await appendFile(logPath, '\n[flotilla] checks cancelled\n').catch(() => {});
    throw error;
  } finally {
    await removeWorktree(repoRoot, worktreePath);
  }

  const durationMs = Date.now() - started;
  await appendFile(
    logPath,
    `\n[flotilla] checks ${outcome.status === 'success' ? 'passed' : 'failed'}: ${outcome.what} (${durationMs} ms)\n`,
  );
  if (outcome.status === 'success') return { status: 'success', reason: null, logPath, durationMs };
  const tail = await readLogTail(logPath);
  return {
    status: 'failure',
    reason: tail === '' ? outcome.what : `${outcome.what}\n${tail}`,
    logPath,
    durationMs,
  };
}

async function runCommandInWorktree(
  deps: RunLocalChecksDeps,
  params: RunLocalChecksParams & { command: string; worktreePath: string; logPath: string },
): Promise<{ status: 'success' | 'failure'; what: string }> {
  const env: NodeJS.ProcessEnv = { ...(params.env ?? process.env) };
  for (const name of GIT_LOCATION_VARIABLES) delete env[name];
  // Test runners start watch mode or prompt when they think a person is at the terminal.
  env.CI ??= 'true';
  env[CHECKS_WORKTREE_VARIABLE] = params.worktreePath;
  try {
    await deps.runCommand('sh', ['-c', WRAPPER, 'flotilla-checks', params.logPath, params.command], {
      cwd: params.worktreePath,
      timeoutMs: params.timeoutMs,
      env,
      ...(params.signal ? { signal: params.signal } : {}),
    });
    return { status: 'success', what: 'exit code 0' };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    if (error.cancelled) params.signal?.throwIfAborted();
    let what: string;
    if (error.timedOut) what = `\`${params.command}\` timed out after ${formatDuration(params.timeoutMs)}`;
    else if (error.exitCode !== null) what = `\`${params.command}\` exited with code ${error.exitCode}`;
    else if (error.signal !== null) what = `\`${params.command}\` was killed by ${error.signal}`;
    else what = `\`${params.command}\` could not start: ${error.message.split('\n')[0] ?? error.message}`;
    return { status: 'failure', what };
  }
}

async function addWorktree(repoRoot: string, path: string, sha: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await runGit(['worktree', 'add', '--detach', '--quiet', path, sha], {
        cwd: repoRoot,
        timeoutMs: GIT_TIMEOUT_MS,
      });
      return;
    } catch (error) {
      // Another git command holding a lock (e.g. an agent worktree being created) is worth a retry.
      const busy = error instanceof CommandError && /\.lock\b/.test(error.stderr);
      if (!busy || attempt >= 3) {
        throw new Error(`Could not create the checks worktree for ${sha}: ${messageOf(error)}`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** Removes the worktree and its record; falls back to deleting the directory and pruning. */
async function removeWorktree(repoRoot: string, path: string): Promise<void> {
  const git = (args: string[]) => runGit(args, { cwd: repoRoot, timeoutMs: GIT_TIMEOUT_MS });
  try {
    await git(['worktree', 'remove', '--force', '--force', path]);
  } catch {
    // Not registered (creation failed), or files in use: delete it ourselves and let git forget it.
  }
  // Processes killed at a timeout may still be exiting and writing: rm retries on ENOTEMPTY/EBUSY.
  const removeDirectory = () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  await removeDirectory().catch(async () => {
    // The command may have made its files read-only.
    await runCommand('chmod', ['-R', 'u+w', path], { cwd: repoRoot, okExitCodes: [0, 1] }).catch(() => {});
    await removeDirectory();
  });
  await git(['worktree', 'prune']);
}

async function readLogTail(logPath: string): Promise<string> {
  const handle = await open(logPath, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer
      .toString('utf8')
      .split('\n')
      .filter((line) => !line.startsWith('[flotilla] '));
    while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
    const tail = lines.slice(-REASON_LINES).join('\n');
    return tail.length > REASON_MAX_CHARS ? `…${tail.slice(-REASON_MAX_CHARS)}` : tail;
  } finally {
    await handle.close();
  }
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
