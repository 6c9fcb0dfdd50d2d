import { relative, resolve } from 'node:path';
import type { FlotillaConfig } from '../config/index.ts';
import { SCRIPTED_RUNTIME } from '../domain/index.ts';
import { loadScenarioFile } from '../model-server/load-scenario-file.ts';
import { ScenarioError } from '../model-server/parse-scenario.ts';
import type { Scenario } from '../model-server/scenario-types.ts';

export type ConfiguredScenario =
  | { kind: 'none' }
  | { kind: 'ok'; path: string; scenario: Scenario }
  /** `errors`: one line per problem, naming the file (relative to the repository) and the field. */
  | { kind: 'invalid'; path: string; errors: string[] };

/**
 * The scripted scenario the config names (`scriptedScenario`, resolved against the repository root), loaded
 * and validated — or `none` when no role's runtime (nor a named runtime) is `scripted`.
 */
export async function loadConfiguredScenario(
  repoRoot: string,
  config: Pick<FlotillaConfig, 'runtimes' | 'scriptedScenario'> &
    Partial<Pick<FlotillaConfig, 'namedRuntimes'>>,
): Promise<ConfiguredScenario> {
  const runtimes = [...Object.values(config.runtimes), ...Object.values(config.namedRuntimes ?? {})];
  if (!runtimes.includes(SCRIPTED_RUNTIME) || config.scriptedScenario === undefined) {
    return { kind: 'none' };
  }
  const path = resolve(repoRoot, config.scriptedScenario);
  try {
    return { kind: 'ok', path, scenario: await loadScenarioFile(path) };
  } catch (error) {
    const label = relative(repoRoot, path) || path;
    const issues = error instanceof ScenarioError ? error.issues : [String(error)];
    return {
      kind: 'invalid',
      path,
      errors: issues.map((issue) => `${label} (scriptedScenario in flotilla.config.json): ${issue}`),
    };
  }
}
