import { findClaudeModelPrice } from './claude/claude-prices.ts';
import { claudeRuntime } from './claude/claude-runtime-descriptor.ts';
import type { CliRuntimeSettings } from './cli/cli-runtime-config-schema.ts';
import { createCliRuntimeDescriptor } from './cli/cli-runtime-descriptor.ts';
import { codexRuntime } from './codex/codex-runtime-descriptor.ts';
import { geminiRuntime } from './gemini/gemini-runtime-descriptor.ts';
import { scriptedRuntime } from './scripted/scripted-runtime-descriptor.ts';
import type { RuntimeDescriptor } from './shared/runtime-descriptor.ts';

/**
 * Every agent runtime Flotilla knows, one line each: the config schema, the composition root, the runtime
 * choices, crash recovery and `flotilla doctor` loop over this list. The first is the default runtime.
 * Adding a runtime is its folder plus one line here (test/architecture/runtime-names.test.ts holds it so).
 */
export const RUNTIME_REGISTRY = [
  claudeRuntime,
  codexRuntime,
  scriptedRuntime,
  // The `claude` CLI reports its requests' models: priced with the Claude runtime's table, for the budgets.
  createCliRuntimeDescriptor({ findModelPrice: findClaudeModelPrice }),
  geminiRuntime,
] as const satisfies readonly RuntimeDescriptor[];

/**
 * The descriptor of the runtime with this name, or undefined. Call its methods only with settings that chose
 * it (`runtimes.<role>` validated by its own config form).
 */
export function findRuntime(name: string): RuntimeDescriptor<RuntimeSettings> | undefined {
  return RUNTIME_REGISTRY.find((runtime) => runtime.name === name);
}

/** The registry name of the runtime these settings choose. */
export const runtimeNameOf = (settings: RuntimeSettings): string =>
  typeof settings === 'string' ? settings : settings.runtime;

/**
 * The settings of the runtimes configured as an object (`{"runtime": "<name>", …}`): one member per such
 * runtime, beside its line above, so `config.runtimes.<role>` is typed.
 */
export type RuntimeObjectSettings = CliRuntimeSettings;

/** What `runtimes.<role>` holds: a runtime's name, or a runtime's object settings. */
export type RuntimeSettings = string | RuntimeObjectSettings;
