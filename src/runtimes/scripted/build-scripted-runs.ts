import type { AgentFailureReason, AgentResult } from '../../domain/index.ts';
import type { ScriptedRun } from './scripted-run.ts';

type RunExtras = Omit<ScriptedRun, 'end'>;

/** A run that ends with this result (output, delays, usage and log path from `extras`). */
export function buildResultRun(result: AgentResult, extras: RunExtras = {}): ScriptedRun {
  return { ...extras, end: { kind: 'result', result } };
}

/** A run whose result rejects with an AgentRunFailure of this reason. */
export function buildFailureRun(
  reason: AgentFailureReason,
  message: string,
  extras: RunExtras = {},
): ScriptedRun {
  return { ...extras, end: { kind: 'fail', reason, message } };
}

/** A run that never ends on its own. */
export function buildHangingRun(extras: RunExtras = {}): ScriptedRun {
  return { ...extras, end: { kind: 'hang' } };
}

/** startAgent rejects: the session never starts. */
export function buildProvisioningFailureRun(
  message: string,
  extras: Pick<RunExtras, 'startDelayMs'> = {},
): ScriptedRun {
  return { ...extras, end: { kind: 'provisioningFailure', message } };
}
