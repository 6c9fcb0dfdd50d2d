import {
  type AgentMode,
  type AgentRunRequestCommand,
  type ModeLimitsConfig,
  resolveModeLimits,
  type WorkItemMode,
} from '../../domain/index.ts';
import type { RunLimits } from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';

/** What the engine decides about a run besides its role (issue #29): its mode, limits and model. */
export interface RunModeOptions {
  /** An implementor run's mode: its item's (`task:investigate`, `task:refine`), or an automatic refinement's. */
  mode?: WorkItemMode;
  limits: RunLimits;
  /** The model `models.implementor`'s complexity map chose, and why. */
  model?: string;
  modelReason?: string;
}

export interface RunModeConfig {
  /** Config `limits.<mode>`. */
  limits?: Partial<Record<AgentMode, ModeLimitsConfig>>;
  /** Config `maxAgentDuration` (seconds): no default limit is longer. */
  maxAgentDuration?: number;
  /** Config `models.implementor` as a map: `complexity:*` label value → model. */
  implementorModels?: Readonly<Record<string, string>>;
}

/** The run's mode (from its item's labels), its limits, and the implementor's model by complexity. */
export function buildRunModeOptions(
  command: AgentRunRequestCommand,
  state: EngineState,
  config: RunModeConfig,
): RunModeOptions {
  const item = command.type === 'requestPlannerRun' ? undefined : state.workItems[command.workItemID];
  // An automatic refinement (handle-auto-refinement.ts) names its mode; otherwise the item's label does.
  const itemMode = command.type === 'requestImplementorRun' ? (command.mode ?? item?.mode) : undefined;
  const mode: AgentMode =
    command.type === 'requestPlannerRun'
      ? 'plan'
      : command.type === 'requestReviewerRun'
        ? 'review'
        : (itemMode ?? 'implement');
  const limits = resolveModeLimits(mode, config.limits?.[mode], config.maxAgentDuration);
  const options: RunModeOptions = { ...(itemMode !== undefined && { mode: itemMode }), limits };
  if (mode !== 'implement' || config.implementorModels === undefined) return options;
  const complexity = item?.complexityLabel ?? item?.complexity ?? undefined;
  if (complexity === undefined) {
    return { ...options, modelReason: 'no complexity:* label; the agent definition’s model' };
  }
  const model = config.implementorModels[complexity];
  if (model === undefined) {
    return {
      ...options,
      modelReason: `complexity:${complexity} is not in models.implementor; the agent definition’s model`,
    };
  }
  return { ...options, model, modelReason: `complexity:${complexity} → ${model} (models.implementor)` };
}
