import { findRuntime, RUNTIME_REGISTRY } from '../../runtimes/registry.ts';

/**
 * The runtimes `flotilla demo --runtime` offers: every one in the registry that says how its demo runs
 * (`demo` in its descriptor), in the registry's order; the first is the default.
 */
export const DEMO_RUNTIMES: readonly string[] = RUNTIME_REGISTRY.filter((runtime) => runtime.demo).map(
  (runtime) => runtime.name,
);

export const isDemoRuntime = (value: string): boolean => DEMO_RUNTIMES.includes(value);

/** The demo of the runtime with this name, or undefined when it offers none. */
export const findRuntimeDemo = (name: string) => findRuntime(name)?.demo;
