import { join } from 'node:path';
import type { ResourceGate } from '../../engine/scheduler/resource-gate.ts';
import { findRuntime, RUNTIME_REGISTRY } from '../../runtimes/registry.ts';
import { createAgentMemoryMeter } from './create-agent-memory-meter.ts';
import { createMachineResourceGate, type MachineResourceSettings } from './create-machine-resource-gate.ts';
import { readMachineLoad } from './read-machine-load.ts';

/** Between checks the meter still samples, so a run's peak is seen even when nothing is dispatched. */
const SAMPLE_EVERY_MS = 5_000;

/**
 * The control plane's resource gate: every runtime's runs (its descriptor's `stateDir` and marker
 * variables, as the orphan reaper finds them) metered from /proc every few seconds, and the machine's
 * memory and load read at each check. `stop()` ends the sampling.
 */
export function startMachineResourceGate(
  stateDir: string,
  settings: MachineResourceSettings,
): { gate: ResourceGate; stop: () => void } {
  const groups = RUNTIME_REGISTRY.flatMap((descriptor) =>
    descriptor.stateDir === null ? [] : [descriptor.stateDir],
  );
  const meter = createAgentMemoryMeter({
    runsDirs: new Map(groups.map((group) => [group, join(stateDir, group, 'runs')])),
    markerVariables: [...new Set(RUNTIME_REGISTRY.flatMap((descriptor) => descriptor.orphanMarkerVariables))],
  });
  const timer = setInterval(() => meter.sample(), SAMPLE_EVERY_MS);
  timer.unref();
  const gate = createMachineResourceGate({
    settings,
    meter,
    readLoad: () => readMachineLoad(),
    groupOf: (runtime) => findRuntime(runtime)?.stateDir ?? null,
    now: Date.now,
  });
  return { gate, stop: () => clearInterval(timer) };
}
