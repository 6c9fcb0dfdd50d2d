import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentMemoryMeter } from './create-agent-memory-meter.ts';

const MIB = 1024 * 1024;
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A process holding `mib` MiB resident, carrying the run marker `CLAUDE_CONFIG_DIR=<runsDir>/<run>/config`. */
async function agent(runsDir: string, run: string, mib: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `globalThis.keep = Buffer.alloc(${mib} * 1024 * 1024, 1); console.log('ready'); setInterval(() => {}, 1000);`,
    ],
    {
      env: { PATH: process.env.PATH, CLAUDE_CONFIG_DIR: join(runsDir, run, 'config') },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the test agent exited ${code}`)));
  });
  return child;
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('createAgentMemoryMeter (real processes, /proc)', () => {
  it("sums each run's processes, keeps its peak, and gives a finished run's peak to its runtime's median", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-meter-'));
    dirs.push(stateDir);
    const runsDir = join(stateDir, 'claude', 'runs');
    const meter = createAgentMemoryMeter({
      runsDirs: new Map([['claude', runsDir]]),
      markerVariables: ['CLAUDE_CONFIG_DIR'],
    });
    const big = await agent(runsDir, 'run-a', 150);
    // Two processes of one run (the agent and a tool it started) count as one run.
    const tool = await agent(runsDir, 'run-b', 20);
    const toolHelper = await agent(runsDir, 'run-b', 20);
    // Not a run of ours: another state directory.
    await agent(join(stateDir, 'elsewhere'), 'run-x', 10);
    meter.sample();
    const live = meter.liveRuns();
    expect([...live.keys()].sort()).toEqual(['claude/run-a', 'claude/run-b']);
    expect(live.get('claude/run-a')?.rssBytes).toBeGreaterThan(150 * MIB);
    const runB = live.get('claude/run-b')?.rssBytes ?? 0;
    expect(runB).toBeGreaterThan(40 * MIB);
    // Each process has its own runtime on top of its 20 MiB: run-b (two) stays below run-a (one of 150 MiB).
    expect(runB).toBeLessThan(live.get('claude/run-a')?.rssBytes ?? 0);
    expect(meter.medianPeakBytes('claude')).toBeNull();

    big.kill('SIGKILL');
    await ended(big);
    toolHelper.kill('SIGKILL');
    await ended(toolHelper);
    meter.sample();
    // run-a is over: its peak is the median; run-b shrank but keeps its peak.
    const median = meter.medianPeakBytes('claude') ?? 0;
    expect(median).toBeGreaterThan(150 * MIB);
    const shrunk = meter.liveRuns().get('claude/run-b');
    expect(shrunk?.peakBytes).toBeGreaterThanOrEqual(runB);
    // One of its two processes is gone: well below its peak now (each holds at least 20 MiB).
    expect(shrunk?.rssBytes ?? Number.NaN).toBeLessThan((shrunk?.peakBytes ?? 0) - 15 * MIB);

    tool.kill('SIGKILL');
    await ended(tool);
    meter.sample();
    // Two finished runs: the median of their peaks lies between them.
    const both = meter.medianPeakBytes('claude') ?? 0;
    expect(both).toBeLessThan(median);
    expect(both).toBeGreaterThan(runB);
    expect(meter.liveRuns().size).toBe(0);
  }, 30_000);
});
