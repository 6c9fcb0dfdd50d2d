import { buildOutputTail, type OutputTailLimits } from './build-output-tail.ts';

/** One validation command that did not pass. */
export interface ValidationFailure {
  command: string;
  /** e.g. `exited with code 1`, `timed out after 600 s`. */
  reason: string;
  /** Its stdout and stderr, interleaved as written. */
  output: string;
}

/**
 * The errors an agent (and, at the end, a human) gets: which command failed, why, and the bounded tail of
 * its output in a fence the output cannot close.
 */
export function buildValidationErrors(failure: ValidationFailure, limits: OutputTailLimits = {}): string {
  const tail = buildOutputTail(failure.output, limits);
  const body = tail.text === '' ? '(no output)' : tail.text;
  const longestTicks = Math.max(0, ...Array.from(body.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longestTicks + 1));
  return [`\`${failure.command}\` ${failure.reason}:`, '', `${fence}text`, body, fence].join('\n');
}
