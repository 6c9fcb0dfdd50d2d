import type { AgentResult, ImplementorResult } from '../../domain/index.ts';
import { AgentRunFailure } from '../../engine/runtime-contract/index.ts';

/** A role's validated output: the implementor's before its patch is added. */
export type ValidatedOutput =
  | Exclude<AgentResult, ImplementorResult>
  | Omit<ImplementorResult, 'patch' | 'base'>;

/**
 * The role's result from its validated output: planner and reviewer as they are, an implementor that did
 * not complete without a patch, a completed one with the patch `patch()` takes — an empty one fails the run.
 */
export async function finishAgentResult(
  output: ValidatedOutput,
  patch: () => Promise<string>,
): Promise<AgentResult> {
  if (output.role !== 'implementor') return output as AgentResult;
  if (output.outcome !== 'completed') return { ...output, patch: null };
  const taken = await patch();
  if (taken.trim() === '') {
    throw new AgentRunFailure(
      'no-changes',
      'the implementor reported completed but changed nothing (empty patch)',
    );
  }
  return { ...output, patch: taken };
}
