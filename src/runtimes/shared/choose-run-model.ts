import type { AgentRole } from '../../domain/index.ts';
import type { AgentStartParams } from '../../engine/runtime-contract/index.ts';

/**
 * The model a run asks its API for: the one the engine chose for this implementor run (`models.implementor`
 * as a map by `complexity:*` label, issue #29), else the role's configured model, else the runtime's own.
 * Undefined: the agent program's default.
 */
export function chooseRunModel(
  params: AgentStartParams,
  role: AgentRole,
  config: { models?: Partial<Record<AgentRole, string>> | undefined; model?: string | undefined },
): string | undefined {
  const chosen = params.role === 'implementor' ? params.model : undefined;
  return chosen ?? config.models?.[role] ?? config.model;
}
