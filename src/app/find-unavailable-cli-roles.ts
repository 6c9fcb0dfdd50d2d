import type { FlotillaConfig } from '../config/index.ts';
import { AGENT_ROLES } from '../domain/index.ts';
import { checkCliAvailability } from '../runtimes/cli/check-cli-availability.ts';
import { resolveCliPreset } from '../runtimes/cli/cli-presets.ts';

/**
 * One line per role on the CLI runtime that cannot run (`runtimes.<role>: CLI preset <p> cannot run: …`),
 * so `flotilla run` refuses at start instead of each run being refused at dispatch. A bad `custom` preset is
 * left to the runtime's construction, which names it.
 */
export function findUnavailableCliRoles(
  config: Pick<FlotillaConfig, 'runtimes'>,
  env: Readonly<Record<string, string | undefined>>,
  repoRoot: string,
): string[] {
  const problems: string[] = [];
  for (const role of AGENT_ROLES) {
    const settings = config.runtimes[role];
    if (typeof settings === 'string') continue;
    let preset: ReturnType<typeof resolveCliPreset>;
    try {
      preset = resolveCliPreset(settings.preset, settings.custom);
    } catch {
      continue;
    }
    const availability = checkCliAvailability({
      presetName: settings.preset,
      preset,
      ...(settings.program !== undefined && { program: settings.program }),
      env,
      cwd: repoRoot,
    });
    if (!availability.available) {
      problems.push(
        `runtimes.${role}: runtime 'cli:${settings.preset}' cannot run: ${availability.problems.join('; ')}`,
      );
    }
  }
  return problems;
}
