import type { FlotillaConfig } from '../config/index.ts';
import { AGENT_ROLES, type AgentRole } from '../domain/index.ts';
import { findRuntime, type RuntimeSettings, runtimeNameOf } from '../runtimes/registry.ts';

/**
 * The preflight each runtime answers at dispatch (its descriptor's `checkAvailability`), once at start, so
 * `flotilla run` refuses clearly instead of each run failing mid-way (no binary, no key). One line per
 * runtime named by name (`runtime 'codex' (implementor, reviewer) cannot run: …`), and per role on a runtime
 * configured as an object (`runtimes.planner: runtime 'cli:aider' cannot run: …`).
 */
export function findUnavailableRuntimes(
  config: Pick<FlotillaConfig, 'runtimes'>,
  env: Readonly<Record<string, string | undefined>>,
  repoRoot: string,
): string[] {
  const byName = new Map<string, AgentRole[]>();
  const problems: string[] = [];
  const check = (settings: RuntimeSettings) => {
    const descriptor = findRuntime(runtimeNameOf(settings));
    const availability = descriptor?.checkAvailability?.({ settings, env, cwd: repoRoot });
    return {
      problems: availability === undefined || availability.available ? [] : availability.problems,
      label: descriptor?.runName?.(settings) ?? runtimeNameOf(settings),
    };
  };
  for (const role of AGENT_ROLES) {
    const settings = config.runtimes[role];
    if (typeof settings === 'string') {
      byName.set(settings, [...(byName.get(settings) ?? []), role]);
      continue;
    }
    const { problems: found, label } = check(settings);
    if (found.length > 0)
      problems.push(`runtimes.${role}: runtime '${label}' cannot run: ${found.join('; ')}`);
  }
  const named = [...byName].flatMap(([name, roles]) => {
    const { problems: found } = check(name);
    return found.length === 0
      ? []
      : [`runtime '${name}' (${roles.join(', ')}) cannot run: ${found.join('; ')}`];
  });
  return [...named, ...problems];
}
