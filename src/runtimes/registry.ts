import { findClaudeModelPrice } from './claude/claude-prices.ts';
import { claudeRuntime } from './claude/claude-runtime-descriptor.ts';
import { createCliRuntimeDescriptor } from './cli/cli-runtime-descriptor.ts';
import { codexRuntime } from './codex/codex-runtime-descriptor.ts';
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
] as const satisfies readonly RuntimeDescriptor[];

/** The descriptor of the runtime with this name, or undefined. */
export function findRuntime(name: string): (typeof RUNTIME_REGISTRY)[number] | undefined {
  return RUNTIME_REGISTRY.find((runtime) => runtime.name === name);
}
