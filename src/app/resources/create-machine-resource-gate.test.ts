import { describe, expect, it } from 'vitest';
import type { AgentMemoryMeter, MeteredRun } from './create-agent-memory-meter.ts';
import { createMachineResourceGate, type MachineResourceSettings } from './create-machine-resource-gate.ts';
import type { MachineLoad } from './read-machine-load.ts';

const MIB = 1024 * 1024;

function setup(options: {
  availableMiB: number;
  settings?: Partial<MachineResourceSettings>;
  load1?: number;
}) {
  const live = new Map<string, MeteredRun>();
  const medians = new Map<string, number>();
  const machine: MachineLoad = {
    availableBytes: options.availableMiB * MIB,
    totalBytes: 8192 * MIB,
    load1: options.load1 ?? 0.5,
    cpus: 2,
  };
  let now = 1_000_000;
  const meter: AgentMemoryMeter = {
    sample: () => {},
    liveRuns: () => live,
    medianPeakBytes: (group) => medians.get(group) ?? null,
  };
  const gate = createMachineResourceGate({
    settings: { reserveMemoryMiB: 1024, agentMemoryMiB: 600, maxLoadPerCpu: null, ...options.settings },
    meter,
    readLoad: () => machine,
    groupOf: (runtime) => (runtime === 'scripted' ? 'claude' : runtime),
    now: () => now,
  });
  return { gate, live, medians, machine, advance: (ms: number) => (now += ms) };
}

describe('createMachineResourceGate', () => {
  it('admits while available memory, less the reserve and what starting agents will take, covers one more', () => {
    const { gate, live, machine } = setup({ availableMiB: 1024 + 600 * 2 + 100 });
    expect(gate.check('claude').ok).toBe(true);
    expect(gate.check('claude').ok).toBe(true);
    // Two admitted and not yet seen in /proc: each is counted at its full 600 MiB.
    const refused = gate.check('claude');
    expect(refused).toEqual({
      ok: false,
      retryAt: 1_000_000 + 5_000,
      detail:
        'memory: 2.3 GiB available, 1.2 GiB promised to running agents, 1.0 GiB kept free; a claude agent takes ~600 MiB',
    });
    // One shows up at its expected size: nothing more is promised for it, and the memory it took is gone.
    live.set('claude/a', { group: 'claude', rssBytes: 600 * MIB, peakBytes: 600 * MIB });
    machine.availableBytes -= 600 * MIB;
    expect(gate.check('claude').ok).toBe(false);
    // The other never shows up within a minute: only then it stops counting (see below), so still no room.
    expect(gate.check('claude').ok).toBe(false);
  });

  it("expects the runtime's measured median peak instead of the seed once runs were measured", () => {
    const { gate, medians } = setup({ availableMiB: 1024 + 500 });
    expect(gate.check('codex').ok).toBe(false); // seed 600 MiB > 500 MiB room
    medians.set('codex', 300 * MIB);
    expect(gate.check('codex').ok).toBe(true);
    // The scripted runtime shares claude's runs directory, and so its measurements.
    medians.set('claude', 900 * MIB);
    const refused = gate.check('scripted');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.detail).toContain('a scripted agent takes ~900 MiB');
  });

  it('counts what a live run below its expected peak will still take', () => {
    const { gate, live } = setup({ availableMiB: 1024 + 700 });
    live.set('claude/a', { group: 'claude', rssBytes: 100 * MIB, peakBytes: 100 * MIB });
    // 500 MiB of claude/a's expected 600 is still to come: 200 MiB left, not enough for 600.
    expect(gate.check('claude').ok).toBe(false);
    live.set('claude/a', { group: 'claude', rssBytes: 600 * MIB, peakBytes: 600 * MIB });
    expect(gate.check('claude').ok).toBe(true);
  });

  it('forgets an admitted run that never showed up after a minute', () => {
    const { gate, advance } = setup({ availableMiB: 1024 + 700 });
    expect(gate.check('claude').ok).toBe(true);
    expect(gate.check('claude').ok).toBe(false);
    advance(61_000);
    expect(gate.check('claude').ok).toBe(true);
  });

  it('holds agents back while the load per core is above maxLoadPerCpu, when set', () => {
    const busy = setup({ availableMiB: 16_000, load1: 9, settings: { maxLoadPerCpu: 4 } });
    expect(busy.gate.check('claude')).toEqual({
      ok: false,
      retryAt: 1_005_000,
      detail: 'CPU: load 9.0 on 2 cores is above scheduler.resources.maxLoadPerCpu 4',
    });
    expect(setup({ availableMiB: 16_000, load1: 9 }).gate.check('claude').ok).toBe(true);
  });
});
