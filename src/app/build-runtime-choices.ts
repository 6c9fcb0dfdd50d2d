import {
  AGENT_RUNTIMES,
  type AgentRuntimeKind,
  CLI_RUNTIME_PRESETS,
  type CliRuntimeSettings,
  type FlotillaConfig,
} from '../config/index.ts';
import { AGENT_ROLES } from '../domain/index.ts';
import type { RuntimeAdapter, RuntimeChoices } from '../engine/runtime-contract/index.ts';

export interface RuntimeChoiceBuilders {
  /** The runtime of a config name (`claude`, `codex`, `scripted`), or null when it cannot run here. */
  named(kind: AgentRuntimeKind): RuntimeAdapter | null;
  /** A CLI runtime with these settings. */
  cli(settings: CliRuntimeSettings): RuntimeAdapter;
}

/**
 * The runtimes a work item's `runtime:<name>` label may name, each created on first use and then shared:
 *
 * - `claude`, `codex` — the SDK runtimes; `scripted` only when a `scriptedScenario` is configured;
 * - `cli:<preset>` for every CLI preset: with the settings of the first role configured with that preset
 *   (its `program`, `protectedPaths`, `custom` templates), else the preset's defaults; `cli:custom` only when
 *   a role configures it (it has no defaults).
 *
 * A name is what the runtime records with its runs, so `flotilla runs` shows the same names.
 */
export function buildRuntimeChoices(config: FlotillaConfig, builders: RuntimeChoiceBuilders): RuntimeChoices {
  const configuredCli = new Map<string, CliRuntimeSettings>();
  for (const role of AGENT_ROLES) {
    const settings = config.runtimes[role];
    if (typeof settings !== 'string' && !configuredCli.has(settings.preset))
      configuredCli.set(settings.preset, settings);
  }
  const names = [
    ...AGENT_RUNTIMES.filter((kind) => kind !== 'scripted' || config.scriptedScenario !== undefined),
    ...CLI_RUNTIME_PRESETS.filter((preset) => preset !== 'custom' || configuredCli.has('custom')).map(
      (preset) => `cli:${preset}`,
    ),
  ];
  const created = new Map<string, RuntimeAdapter | null>();
  const create = (name: string): RuntimeAdapter | null => {
    if (!names.includes(name)) return null;
    if (!name.startsWith('cli:')) return builders.named(name as AgentRuntimeKind);
    const preset = name.slice('cli:'.length) as CliRuntimeSettings['preset'];
    return builders.cli(configuredCli.get(preset) ?? { runtime: 'cli', preset, protectedPaths: [] });
  };
  return {
    names,
    get(name) {
      if (!created.has(name)) created.set(name, create(name));
      return created.get(name) ?? null;
    },
  };
}
