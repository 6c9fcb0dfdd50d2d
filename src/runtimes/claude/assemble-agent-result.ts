import type { SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import type { AgentResult, AgentRole, AgentUsage, WorkItemMode } from '../../domain/index.ts';
import {
  AgentRunFailure,
  validateAgentOutputOrQuestions,
  validateModeOutputOrQuestions,
} from '../../engine/runtime-contract/index.ts';

/**
 * Turns the session's result message into the role's validated result (docs/runtime-spec.md §Result Assembly),
 * rejecting with an AgentRunFailure whenever the session did not really succeed: `subtype: 'success'` alone
 * proves nothing (an API error can end as success with is_error), so is_error, the subtype and the presence
 * of valid structured output are all checked. The implementor's patch is added by the caller's
 * `extractPatch`, only for `completed`; an empty patch is a `no-changes` failure.
 */
export async function assembleAgentResult(input: {
  role: AgentRole;
  /** An implementor run's mode (investigate, refine): its report is validated instead; no patch is taken. */
  mode?: WorkItemMode;
  result: SDKResultMessage | undefined;
  extractPatch: () => Promise<string>;
}): Promise<AgentResult | { kind: 'questions'; questions: string[] }> {
  const { role, result } = input;
  if (!result) throw new AgentRunFailure('error', `the ${role} session ended without a result`);
  if (result.subtype !== 'success') {
    const detail = result.errors.length > 0 ? `: ${result.errors.join('; ')}` : '';
    throw new AgentRunFailure('error', `the ${role} session failed (${result.subtype})${detail}`);
  }
  if (result.is_error) {
    throw new AgentRunFailure(
      'error',
      `the ${role} session ended with an error: ${result.result || 'no details'}`,
    );
  }
  if (input.mode !== undefined) {
    const mode = validateModeOutputOrQuestions(input.mode, result.structured_output);
    if (!mode.ok) throw new AgentRunFailure('error', mode.error);
    if (mode.value.kind === 'questions') return mode.value;
    const { report } = mode.value;
    return { role: 'implementor', outcome: 'completed', summary: report.summary, patch: null, report };
  }
  const validated = validateAgentOutputOrQuestions(role, result.structured_output);
  if (!validated.ok) throw new AgentRunFailure('error', validated.error);
  // The agent stopped to ask a human (outcome `questions`): no patch is taken, the session is kept.
  if (validated.value.kind === 'questions') return validated.value;
  const output = validated.value.output;
  if (output.role !== 'implementor') return output as AgentResult;
  if (output.outcome !== 'completed') return { ...output, patch: null };
  const patch = await input.extractPatch();
  if (patch.trim() === '') {
    throw new AgentRunFailure(
      'no-changes',
      'the implementor reported completed but changed nothing (empty patch)',
    );
  }
  return { ...output, patch };
}

/** Cost and token usage as the runtime reports them in its result message. */
export function readUsage(result: SDKResultMessage | undefined): AgentUsage | null {
  if (!result) return null;
  return {
    costUSD: typeof result.total_cost_usd === 'number' ? result.total_cost_usd : null,
    inputTokens: typeof result.usage?.input_tokens === 'number' ? result.usage.input_tokens : null,
    outputTokens: typeof result.usage?.output_tokens === 'number' ? result.usage.output_tokens : null,
    turns: typeof result.num_turns === 'number' ? result.num_turns : null,
  };
}
