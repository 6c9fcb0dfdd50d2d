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
 * - `claude`, `codex` — the SDK runtimes; `scripted` only when a role or named runtime is `scripted` (its
 *   scenario server runs then);
 * - `cli:<preset>` for every CLI preset: with the settings of the first role configured with that preset
 *   (its `program`, `protectedPaths`, `custom` templates), else the preset's defaults; `cli:custom` only when
 *   a role configures it (it has no defaults);
 * - the config's `namedRuntimes`: a name of the user's for a runtime setting (e.g. aider with its own
 *   program); its runs are recorded under the runtime's own name (`cli:aider`, `codex`).
 *
 * A built-in name is what the runtime records with its runs, so `flotilla runs` shows the same names.
 */
export function buildRuntimeChoices(config: FlotillaConfig, builders: RuntimeChoiceBuilders): RuntimeChoices {
  const configuredCli = new Map<string, CliRuntimeSettings>();
  for (const role of AGENT_ROLES) {
    const settings = config.runtimes[role];
    if (typeof settings !== 'string' && !configuredCli.has(settings.preset))
      configuredCli.set(settings.preset, settings);
  }
  const named = config.namedRuntimes ?? {};
  // The scripted model server runs only when a role or a named runtime is `scripted`.
  const scripted = [...AGENT_ROLES.map((role) => config.runtimes[role]), ...Object.values(named)].includes(
    'scripted',
  );
  const names = [
    ...AGENT_RUNTIMES.filter((kind) => kind !== 'scripted' || scripted),
    ...CLI_RUNTIME_PRESETS.filter((preset) => preset !== 'custom' || configuredCli.has('custom')).map(
      (preset) => `cli:${preset}`,
    ),
    ...Object.keys(named),
  ];
  const created = new Map<string, RuntimeAdapter | null>();
  const create = (name: string): RuntimeAdapter | null => {
    if (!names.includes(name)) return null;
    if (Object.hasOwn(named, name)) {
      const settings = named[name];
      if (settings === undefined) return null;
      return typeof settings === 'string' ? builders.named(settings) : builders.cli(settings);
    }
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
