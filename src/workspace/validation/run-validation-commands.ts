import { CommandError, GIT_LOCATION_VARIABLES, runCommand } from '../../process/run-command.ts';
import type { ValidationFailure } from './build-validation-errors.ts';

export interface RunValidationCommandsParams {
  commands: readonly string[];
  /** The implementor's worktree. */
  cwd: string;
  /** Per command; it and everything it started are killed after this long (a failure). */
  timeoutMs: number;
  env: Readonly<Record<string, string>>;
  /** The run's abort signal: cancelling or timing out the run kills the command. */
  signal: AbortSignal;
  /** Called before each command and with its verdict, for the live stream and the transcript. */
  onProgress?: (line: string) => void;
  /**
   * Wraps each command before it runs (the runtime's OS sandbox: the commands run the agent's code); the
   * command then runs as the wrapper returns it, with exactly its environment. A wrapper that rejects fails
   * the round (the command never runs outside it).
   */
  wrap?: CommandWrapper | undefined;
}

/** Turns `file args` with `env` into what to spawn; `dispose` once it has exited. */
export type CommandWrapper = (
  file: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
) => Promise<{ file: string; args: string[]; env: Record<string, string>; dispose(): Promise<void> }>;

export type ValidationOutcome = { passed: true } | { passed: false; failure: ValidationFailure };

/** Output beyond this per stream kills the command: only the tail is ever shown. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/**
 * `$1` is the user's command. stdout and stderr go to one stream, interleaved as written; once the command is
 * done, whatever it left running in the process group (a server started with `&`) is terminated, so nothing
 * keeps the output open or outlives the round.
 */
const WRAPPER = [
  'exec 2>&1 </dev/null',
  'sh -c "$1"',
  'status=$?',
  "trap '' TERM",
  'kill -s TERM 0 2>/dev/null',
  'exit $status',
].join('\n');

/**
 * Runs the validation commands in order with `sh -c` in the worktree, each in its own process group; the
 * first that fails ends the round (later ones usually depend on it). An abort rejects (the run is over).
 */
export async function runValidationCommands(params: RunValidationCommandsParams): Promise<ValidationOutcome> {
  const env: Record<string, string> = { ...params.env };
  for (const name of GIT_LOCATION_VARIABLES) delete env[name];
  for (const command of params.commands) {
    params.signal.throwIfAborted();
    params.onProgress?.(`$ ${command}`);
    const args = ['-c', WRAPPER, 'flotilla-validation', command];
    let wrapped: Awaited<ReturnType<CommandWrapper>>;
    try {
      wrapped =
        params.wrap === undefined
          ? { file: 'sh', args, env, dispose: async () => {} }
          : await params.wrap('sh', args, env);
    } catch (error) {
      const reason = `could not start in the sandbox (${error instanceof Error ? error.message : String(error)})`;
      params.onProgress?.(`validation failed: ${command} (${reason})`);
      return { passed: false, failure: { command, reason, output: '' } };
    }
    try {
      await runCommand(wrapped.file, wrapped.args, {
        cwd: params.cwd,
        env: wrapped.env,
        timeoutMs: params.timeoutMs,
        maxOutputBytes: MAX_OUTPUT_BYTES,
        signal: params.signal,
      });
      params.onProgress?.(`validation passed: ${command}`);
    } catch (error) {
      if (!(error instanceof CommandError) || error.cancelled) throw error;
      const reason = error.timedOut
        ? `timed out after ${Math.round(params.timeoutMs / 1000)} s`
        : error.exitCode !== null
          ? `exited with code ${error.exitCode}`
          : error.signal !== null
            ? `produced more than ${MAX_OUTPUT_BYTES} bytes of output and was killed`
            : 'could not run';
      params.onProgress?.(`validation failed: ${command} (${reason})`);
      return { passed: false, failure: { command, reason, output: error.stdout + error.stderr } };
    } finally {
      await wrapped.dispose().catch(() => {});
    }
  }
  return { passed: true };
}
