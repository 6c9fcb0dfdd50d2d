import type { ResourceGate, ResourceVerdict } from '../../engine/scheduler/resource-gate.ts';
import type { AgentMemoryMeter } from './create-agent-memory-meter.ts';
import type { MachineLoad } from './read-machine-load.ts';

const MIB = 1024 * 1024;
/** How long an admitted run may take to show up in /proc before it stops counting as "starting". */
const STARTING_GRACE_MS = 60_000;
/** When a refused run is asked about again (a run ending asks at once). */
const RECHECK_MS = 5_000;

export interface MachineResourceSettings {
  /** Memory kept free for everything else on the machine. */
  reserveMemoryMiB: number;
  /** What an agent of a runtime is expected to take before any of its runs was measured. */
  agentMemoryMiB: number;
  /** Hold agents back while the one-minute load per core is above this; null: CPU load is not considered. */
  maxLoadPerCpu: number | null;
}

export interface MachineResourceGateDeps {
  settings: MachineResourceSettings;
  meter: AgentMemoryMeter;
  readLoad: () => MachineLoad;
  /** A runtime's state group (its descriptor's `stateDir`), whose measured runs predict its next. */
  groupOf: (runtime: string) => string | null;
  now: () => number;
}

/**
 * The engine's resource gate on this machine: one more agent of a runtime starts when the memory available
 * (MemAvailable), less the reserve and less what agents that are still starting will take on top of what
 * they take now, covers what that runtime's agents took (the median peak of its last runs, or the configured
 * seed); and, when `maxLoadPerCpu` is set, while the load per core is at most that. A refusal says what it
 * waits for, in words users see (progress line, dashboard header).
 */
export function createMachineResourceGate(deps: MachineResourceGateDeps): ResourceGate {
  const { settings, meter } = deps;
  /** Runs admitted but not seen in /proc yet, oldest first, by group. */
  let starting: { group: string; at: number }[] = [];
  const seen = new Set<string>();

  const expectedBytes = (group: string | null) =>
    (group === null ? null : meter.medianPeakBytes(group)) ?? settings.agentMemoryMiB * MIB;

  function refresh(now: number): void {
    meter.sample();
    for (const [key, run] of meter.liveRuns()) {
      if (seen.has(key)) continue;
      seen.add(key);
      // A new run directory is one of the admitted runs of its group showing up.
      const index = starting.findIndex((entry) => entry.group === run.group);
      if (index !== -1) starting.splice(index, 1);
    }
    for (const key of seen) if (!meter.liveRuns().has(key)) seen.delete(key);
    starting = starting.filter((entry) => now - entry.at < STARTING_GRACE_MS);
  }

  return {
    check(runtime): ResourceVerdict {
      const now = deps.now();
      refresh(now);
      const load = deps.readLoad();
      const group = deps.groupOf(runtime);
      const needed = expectedBytes(group);
      // Live runs below their runtime's expected peak will still grow; starting ones take all of theirs.
      let promised = 0;
      for (const run of meter.liveRuns().values()) {
        promised += Math.max(0, expectedBytes(run.group) - run.rssBytes);
      }
      for (const entry of starting) promised += expectedBytes(entry.group);
      const reserve = settings.reserveMemoryMiB * MIB;
      const room = load.availableBytes - reserve - promised;
      if (room < needed) {
        return {
          ok: false,
          retryAt: now + RECHECK_MS,
          detail:
            `memory: ${formatMiB(load.availableBytes)} available, ${formatMiB(promised)} promised to running agents, ` +
            `${formatMiB(reserve)} kept free; a ${runtime} agent takes ~${formatMiB(needed)}`,
        };
      }
      if (settings.maxLoadPerCpu !== null && load.load1 / load.cpus > settings.maxLoadPerCpu) {
        return {
          ok: false,
          retryAt: now + RECHECK_MS,
          detail: `CPU: load ${load.load1.toFixed(1)} on ${load.cpus} cores is above scheduler.resources.maxLoadPerCpu ${settings.maxLoadPerCpu}`,
        };
      }
      if (group !== null) starting.push({ group, at: now });
      return { ok: true };
    },
  };
}

function formatMiB(bytes: number): string {
  return bytes >= 1024 * MIB ? `${(bytes / (1024 * MIB)).toFixed(1)} GiB` : `${Math.round(bytes / MIB)} MiB`;
}
