import { AgentRunFailure } from '../../engine/runtime-contract/index.ts';
import {
  buildValidationErrors,
  type ValidationFailure,
} from '../../workspace/validation/build-validation-errors.ts';
import { buildValidationFixPrompt } from '../../workspace/validation/build-validation-fix-prompt.ts';
import {
  type CommandWrapper,
  runValidationCommands,
} from '../../workspace/validation/run-validation-commands.ts';

/** In-session validation of the implementor's work (docs/runtime-spec.md §Validation Loop), as configured. */
export interface ValidationSettings {
  commands: readonly string[];
  maxRounds: number;
  timeoutMs: number;
}

/** Thrown out of the patch step when a validation command fails: the run resumes its session instead. */
export class ValidationRoundFailed extends Error {
  constructor(readonly failure: ValidationFailure) {
    super(`validation failed: ${failure.command} ${failure.reason}`);
  }
}

/** How often a running validation command counts as activity for the engine's stall detection. */
const VALIDATION_HEARTBEAT_MS = 10_000;

/**
 * Runs one validation round in the worktree; a failing command throws ValidationRoundFailed. Progress lines
 * go through `announce` (live stream and transcript); a quiet test suite still counts as activity.
 */
export async function runValidationRound(params: {
  validation: ValidationSettings;
  round: number;
  cwd: string;
  env: Readonly<Record<string, string>>;
  signal: AbortSignal;
  announce: (line: string) => void;
  notifyActivity: () => void;
  /** The run's sandbox for the commands (they run the agent's code); absent: they run as they are. */
  wrap?: CommandWrapper | undefined;
}): Promise<void> {
  const { validation } = params;
  params.announce(`validation round ${params.round + 1}: running ${validation.commands.length} command(s)`);
  const heartbeat = setInterval(params.notifyActivity, VALIDATION_HEARTBEAT_MS);
  try {
    const verdict = await runValidationCommands({
      commands: validation.commands,
      cwd: params.cwd,
      timeoutMs: validation.timeoutMs,
      env: params.env,
      signal: params.signal,
      onProgress: params.announce,
      ...(params.wrap !== undefined && { wrap: params.wrap }),
    });
    if (!verdict.passed) throw new ValidationRoundFailed(verdict.failure);
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * After a round's result step threw: rethrows anything but a failed validation round (or any error once the
 * run was aborted), and past `maxRounds` the run's `validation` failure quoting the errors. Otherwise
 * announces the fix round and returns its prompt: the errors, for the same session to fix.
 */
export function startFixRound(params: {
  error: unknown;
  round: number;
  maxRounds: number;
  aborted: boolean;
  /** What is resumed, for the announcement (`session`, `thread`). */
  resumed: string;
  announce: (line: string) => void;
}): string {
  const { error, round, maxRounds } = params;
  if (!(error instanceof ValidationRoundFailed) || params.aborted) throw error;
  const errors = buildValidationErrors(error.failure);
  if (round >= maxRounds) {
    throw new AgentRunFailure(
      'validation',
      `validation still fails after ${maxRounds} fix round${maxRounds === 1 ? '' : 's'}: ` +
        `${error.failure.command} ${error.failure.reason}\n\n${errors}`,
    );
  }
  params.announce(`fix round ${round + 1} of ${maxRounds}: resuming the ${params.resumed} with the errors`);
  return buildValidationFixPrompt(errors);
}
