import { StringDecoder } from 'node:string_decoder';
import { CommandError, runCommand } from '../../process/run-command.ts';

export type GeminiProcessOutcome =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'cancelled' }
  | { kind: 'failed'; reason: string };

/** Output beyond this per stream kills gemini: a runaway loop, not work. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Runs one gemini-cli process (src/process/: no shell, its own process group, so an abort reaches every
 * process it started) and hands each complete output line to `onLine` as it arrives. Never rejects: every
 * ending is an outcome.
 */
export async function runGeminiProcess(input: {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Aborting kills the process group (cancel, the run's duration limit). */
  signal: AbortSignal;
  /** A safety net under the run's own timer. */
  timeoutMs: number;
  onLine: (stream: 'stdout' | 'stderr', line: string) => void;
}): Promise<GeminiProcessOutcome> {
  const pending = { stdout: '', stderr: '' };
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  const take = (stream: 'stdout' | 'stderr', text: string) => {
    const lines = (pending[stream] + text).split('\n');
    pending[stream] = lines.pop() ?? '';
    for (const line of lines) input.onLine(stream, line.replace(/\r$/, ''));
  };
  const flush = () => {
    for (const stream of ['stdout', 'stderr'] as const) {
      take(stream, `${decoders[stream].end()}\n`);
    }
  };
  try {
    const result = await runCommand(input.file, input.args, {
      cwd: input.cwd,
      env: input.env,
      signal: input.signal,
      timeoutMs: input.timeoutMs,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      // Any exit code: the stream's `result` event says how the turn went.
      okExitCodes: Array.from({ length: 256 }, (_, code) => code),
      onOutput: (stream, chunk) => take(stream, decoders[stream].write(chunk)),
    });
    flush();
    return { kind: 'exited', exitCode: result.exitCode };
  } catch (error) {
    flush();
    if (error instanceof CommandError && error.cancelled) return { kind: 'cancelled' };
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', reason: message.split('\n')[0] ?? message };
  }
}
