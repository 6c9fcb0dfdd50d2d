import type { AgentMode } from './agent-mode.ts';

/** One mode's limits as configured (`limits.<mode>`): absent fields use DEFAULT_MODE_LIMITS. */
export interface ModeLimitsConfig {
  maxTurns?: number | undefined;
  /** Seconds. */
  timeout?: number | undefined;
}

/** Issue #29: the turns and seconds each mode's runs get unless configured. */
export const DEFAULT_MODE_LIMITS: Readonly<Record<AgentMode, { maxTurns: number; timeout: number | null }>> =
  {
    plan: { maxTurns: 100, timeout: 5 * 60 },
    implement: { maxTurns: 200, timeout: 10 * 60 },
    review: { maxTurns: 50, timeout: null },
    investigate: { maxTurns: 100, timeout: 5 * 60 },
    refine: { maxTurns: 100, timeout: 5 * 60 },
  };

/**
 * A run's effective limits: the configured ones, else DEFAULT_MODE_LIMITS. A default timeout never exceeds
 * `maxAgentDuration` (a configured one replaces it); `maxTurns` configured wins over the agent definition's,
 * a default one only applies when the definition sets none (`defaultMaxTurns`).
 */
export function resolveModeLimits(
  mode: AgentMode,
  configured: ModeLimitsConfig | undefined,
  maxAgentDuration: number | undefined,
): { maxTurns?: number; defaultMaxTurns: number; timeoutSeconds?: number } {
  const defaults = DEFAULT_MODE_LIMITS[mode];
  // Without a default, nor a configured maxAgentDuration, the runtime's own limit stands (no timeoutSeconds).
  const bounds = [defaults.timeout, maxAgentDuration].filter((value): value is number => value != null);
  const timeoutSeconds = configured?.timeout ?? (bounds.length === 0 ? undefined : Math.min(...bounds));
  return {
    ...(configured?.maxTurns !== undefined && { maxTurns: configured.maxTurns }),
    defaultMaxTurns: defaults.maxTurns,
    ...(timeoutSeconds !== undefined && { timeoutSeconds }),
  };
}
