import type { FlotillaConfig } from '../config/index.ts';
import { AGENT_ROLES } from '../domain/index.ts';
import type { RuntimeAdapter, RuntimeChoices } from '../engine/runtime-contract/index.ts';
import { findRuntime, RUNTIME_REGISTRY, type RuntimeSettings, runtimeNameOf } from '../runtimes/registry.ts';

export interface RuntimeChoiceBuilders {
  /**
   * The runtime `runtime` (a name in src/runtimes/registry.ts) with these settings (its own name, for a
   * runtime named by name), or null when it cannot run here.
   */
  build(runtime: string, settings: RuntimeSettings): RuntimeAdapter | null;
}

/**
 * The runtimes a work item's `runtime:<name>` label may name, each created on first use and then shared:
 *
 * - every runtime of src/runtimes/registry.ts by the names its descriptor offers (`labelChoices`; by
 *   default its own name): e.g. the SDK runtimes by name, `scripted` only when a role or named runtime is
 *   `scripted` (its scenario server runs then), `cli:<preset>` for every CLI preset;
 * - the config's `namedRuntimes`: a name of the user's for a runtime setting (e.g. aider with its own
 *   program); its runs are recorded under the runtime's own name (`cli:aider`, `codex`).
 *
 * A built-in name is what the runtime records with its runs, so `flotilla runs` shows the same names.
 */
export function buildRuntimeChoices(config: FlotillaConfig, builders: RuntimeChoiceBuilders): RuntimeChoices {
  const named = config.namedRuntimes ?? {};
  const builtIn = new Map<string, { runtime: string; settings: RuntimeSettings }>();
  for (const { name: runtime } of RUNTIME_REGISTRY) {
    const descriptor = findRuntime(runtime);
    if (descriptor === undefined) continue;
    const chosen = (list: readonly RuntimeSettings[]) =>
      list.filter((settings) => runtimeNameOf(settings) === descriptor.name);
    const configured = {
      roles: chosen(AGENT_ROLES.map((role) => config.runtimes[role])),
      named: chosen(Object.values(named)),
    };
    const offered = descriptor.labelChoices?.(configured) ?? [
      { name: descriptor.name, settings: descriptor.name },
    ];
    for (const { name, settings } of offered) builtIn.set(name, { runtime: descriptor.name, settings });
  }
  const names = [...builtIn.keys(), ...Object.keys(named)];
  const created = new Map<string, RuntimeAdapter | null>();
  const create = (name: string): RuntimeAdapter | null => {
    if (!names.includes(name)) return null;
    if (Object.hasOwn(named, name)) {
      const settings = named[name];
      if (settings === undefined) return null;
      return builders.build(runtimeNameOf(settings), settings);
    }
    const choice = builtIn.get(name);
    return choice === undefined ? null : builders.build(choice.runtime, choice.settings);
  };
  return {
    names,
    get(name) {
      if (!created.has(name)) created.set(name, create(name));
      return created.get(name) ?? null;
    },
  };
}
