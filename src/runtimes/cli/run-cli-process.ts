import { StringDecoder } from 'node:string_decoder';
import { CommandError, runCommand } from '../../process/run-command.ts';
import type { CliCommand } from './build-cli-command.ts';

export interface RunCliProcessInput {
  command: CliCommand;
  cwd: string;
  /** The whole environment the agent gets (already scrubbed). */
  env: Record<string, string>;
  /** Aborting kills the process group (cancel, the run's duration limit). */
  signal: AbortSignal;
  /** A safety net under the run's own timer. */
  timeoutMs: number;
  /** Each complete output line (without its newline), as it arrives; a last unterminated line at exit. */
  onLine: (stream: 'stdout' | 'stderr', line: string) => void;
}

export type CliProcessOutcome =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'killed'; reason: string }
  | { kind: 'cancelled' }
  | { kind: 'not-started'; reason: string };

/** Output beyond this per stream kills the agent: a runaway loop, not work. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Runs one agent CLI process (src/process/: no shell, its own process group, so a kill reaches every
 * process it started) with output cut into lines for the live stream and the transcript. Never rejects:
 * every ending is an outcome.
 */
export async function runCliProcess(input: RunCliProcessInput): Promise<CliProcessOutcome> {
  const splitters = { stdout: createLineSplitter(), stderr: createLineSplitter() };
  const flush = () => {
    for (const stream of ['stdout', 'stderr'] as const) {
      for (const line of splitters[stream].end()) input.onLine(stream, line);
    }
  };
  try {
    const result = await runCommand(input.command.file, input.command.args, {
      cwd: input.cwd,
      env: input.env,
      ...(input.command.stdin !== null && { input: input.command.stdin }),
      signal: input.signal,
      timeoutMs: input.timeoutMs,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      // Any exit code: whether the run worked is the signal file's to say.
      okExitCodes: Array.from({ length: 256 }, (_, code) => code),
      onOutput: (stream, chunk) => {
        for (const line of splitters[stream].push(chunk)) input.onLine(stream, line);
      },
    });
    flush();
    return { kind: 'exited', exitCode: result.exitCode };
  } catch (error) {
    flush();
    if (!(error instanceof CommandError)) return { kind: 'not-started', reason: String(error) };
    if (error.cancelled) return { kind: 'cancelled' };
    if (error.exitCode === null && error.signal === null) {
      const cause = error.cause instanceof Error ? error.cause.message : 'unknown error';
      return { kind: 'not-started', reason: `could not run ${input.command.file} (${cause})` };
    }
    const firstLine = error.message.split('\n')[0] ?? '';
    return { kind: 'killed', reason: firstLine.slice(firstLine.indexOf(': ') + 2) };
  }
}

/** Splits a byte stream into UTF-8 lines (a multi-byte character cut between chunks stays whole). */
function createLineSplitter() {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const take = (text: string): string[] => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    return lines.map((line) => line.replace(/\r$/, ''));
  };
  return {
    push: (chunk: Buffer) => take(decoder.write(chunk)),
    end: (): string[] => {
      const lines = take(decoder.end());
      if (pending !== '') lines.push(pending.replace(/\r$/, ''));
      pending = '';
      return lines;
    },
  };
}
