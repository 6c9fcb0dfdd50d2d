import { SCRIPTED_RUNTIME } from '../../domain/index.ts';
import type { RuntimeDescriptor } from '../shared/runtime-descriptor.ts';
import { checkCliAvailability } from './check-cli-availability.ts';
import { type CliPreset, resolveCliPreset } from './cli-presets.ts';
import {
  CLI_RUNTIME_PRESETS,
  type CliRuntimeSettings,
  cliRuntimeConfigSchema,
} from './cli-runtime-config-schema.ts';
import { createCliRuntime } from './create-cli-runtime.ts';
import type { CliModelPrice } from './create-cli-usage-reader.ts';

export interface CliRuntimeDescriptorOptions {
  /** The live cost of a CLI's requests when it reports them (the `claude` CLI's stream-json), for budgets. */
  findModelPrice: (model: string) => CliModelPrice | null;
}

/**
 * Agent CLIs (README.md): `{"runtime": "cli", "preset": "aider"}` in flotilla.config.json; a label chooses
 * one as `runtime:cli:<preset>`.
 */
export function createCliRuntimeDescriptor(
  options: CliRuntimeDescriptorOptions,
): RuntimeDescriptor<CliRuntimeSettings> {
  return {
    name: 'cli',
    summary: 'an agent CLI (a preset, or your own program)',
    config: {
      kind: 'object',
      schema: cliRuntimeConfigSchema,
      expected: 'a CLI runtime object ({"runtime": "cli", "preset": …})',
    },
    // `cli:<preset>` for every preset: with the settings of the first role configured with that preset (its
    // `program`, `protectedPaths`, `custom` templates), else the preset's defaults; `cli:custom` only when a
    // role configures it (it has no defaults).
    labelChoices({ roles }) {
      return CLI_RUNTIME_PRESETS.flatMap((preset) => {
        const settings = roles.find((entry) => entry.preset === preset);
        if (settings === undefined && preset === 'custom') return [];
        return [
          {
            name: `cli:${preset}`,
            settings: settings ?? { runtime: 'cli' as const, preset, protectedPaths: [] },
          },
        ];
      });
    },
    // The scripted demo agent CLI as a `custom` preset (the prompt on stdin, no session to resume); its usage
    // line is the `claude` CLI's stream-json form (src/app/demo/demo-agent-cli.ts).
    demo: {
      agentProgram: (program) => ({
        runtime: 'cli',
        preset: 'custom',
        program: [...program],
        custom: {
          start: ['demo-agent'],
          resume: null,
          sessionId: { from: 'none' },
          usage: 'claude-stream-json',
        },
        protectedPaths: [],
      }),
    },
    stateDir: 'cli',
    // CLI agents get a per-run CLAUDE_CONFIG_DIR too (guards/agent-env/), under this runtime's own runs.
    orphanMarkerVariables: ['CLAUDE_CONFIG_DIR'],
    runName: (settings) => `cli:${settings.preset}`,
    checkAvailability({ settings, env, cwd }) {
      let preset: CliPreset;
      try {
        preset = resolveCliPreset(settings.preset, settings.custom);
      } catch {
        // A bad `custom` preset is left to the runtime's construction, which names it.
        return { available: true, problems: [] };
      }
      return checkCliAvailability({
        presetName: settings.preset,
        preset,
        ...(settings.program !== undefined && { program: settings.program }),
        env,
        cwd,
      });
    },
    create: (context, settings) =>
      createCliRuntime({
        repoRoot: context.repoRoot,
        defaultBranch: context.defaultBranch,
        logger: context.logger,
        stateDir: context.stateDir,
        preset: settings.preset,
        ...(settings.custom !== undefined && { customPreset: settings.custom }),
        ...(settings.program !== undefined && { program: settings.program }),
        protectedPaths: settings.protectedPaths,
        worktrees: context.worktrees,
        maxAgentDuration: context.maxAgentDuration,
        logging: context.logging,
        ...(context.extraEnv !== undefined && { extraEnv: context.extraEnv }),
        findModelPrice: options.findModelPrice,
        sandbox: context.sandbox,
        passEnv: context.passEnv,
        ...(context.scriptedStandIn && { runtime: SCRIPTED_RUNTIME }),
      }),
  };
}
