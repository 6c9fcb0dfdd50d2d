/**
 * Adapter overhead per runtime: the same one-step implementor scenario (the agent answers `blocked` at once)
 * three ways, interleaved run by run:
 *   bare      the bare SDK or CLI answering in the repository itself (no isolation at all);
 *   bare+git  the same in a git worktree it adds and removes around the session (`worktree add -b`,
 *             `worktree remove`, `branch -D`): the git work anyone running an agent in isolation pays;
 *   runtime   Flotilla's runtime: worktree, agent definition, scrubbed environment, hooks (Claude), signal
 *             file and git control-file checks (CLI), per-run CODEX_HOME (Codex), cleanup; transcripts off,
 *             setup command `none`. The blocked outcome has no patch, so none is extracted on either side.
 *   Claude: the Claude adapter vs a bare `query()` (scripted Messages endpoint).
 *   Codex:  the Codex runtime vs a bare codex-sdk thread (scripted Responses endpoint).
 *   CLI:    the CLI runtime (preset claude) vs the fake agent CLI run bare.
 * Prints medians, the overhead ratios against both bare sides, and a phase profile (median ms per phase,
 * from RuntimeAdapterConfig.onPhase; the bare sides report what they can see under the same names).
 * The runtimes share one worktree manager as under the control plane: with `worktree.prepareAhead` (the
 * default; `--prepare-ahead off` to compare) the runtime side's wall time leaves out the git work behind its
 * result (removal, the next run's spare) and its CPU time includes it.
 * The bare Claude side calls `query()` with the SDK's defaults, so it looks up the CLI binary on every call as
 * a bare caller does; `--bare-binary given` passes it the binary the runtime finds once, to compare with a
 * bare caller who does that too.
 * Issue 25: each runtime also runs in the OS sandbox (`sandboxed`; `--sandbox off` to skip), and the CLI
 * runtime's fake agent runs `--commands N` (default 20) Bash commands without and with it (`cmds`,
 * `sandboxed+cmds`): the sandbox's cost per run and per Bash command.
 * Run: npm run bench:adapter -- --runs 8 --runtimes claude,codex,cli   (or RUNS=8 RUNTIMES=… in the env)
 *      [--prepare-ahead off] [--bare-binary given] [--sandbox off] [--commands 0|10|20|50|100]
 */
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PhaseTiming } from '../../src/engine/runtime-contract/index.ts';
import { runGit } from '../../src/process/run-command.ts';
import { claudePair } from './claude-pair.ts';
import { COMMAND_COUNTS, cliPair } from './cli-pair.ts';
import { codexPair } from './codex-pair.ts';
import type { MakeOverheadPair, OverheadPair } from './overhead-pair.ts';
import { type CpuSource, readCpuMs, startCpuAccounting } from './read-cpu-ms.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string' },
    runtimes: { type: 'string' },
    'prepare-ahead': { type: 'string' },
    'bare-binary': { type: 'string' },
    sandbox: { type: 'string' },
    commands: { type: 'string' },
  },
});
const RUNS = Number(args.runs ?? process.env.RUNS ?? 8);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a positive integer, got ${RUNS}`);
const RUNTIMES = (args.runtimes ?? process.env.RUNTIMES ?? 'claude,codex,cli')
  .split(',')
  .map((name) => name.trim());
const PREPARE_AHEAD = (args['prepare-ahead'] ?? process.env.PREPARE_AHEAD ?? 'on') !== 'off';
const bareBinaryArg = args['bare-binary'] ?? process.env.BARE_BINARY ?? 'lookup';
if (bareBinaryArg !== 'lookup' && bareBinaryArg !== 'given')
  throw new Error(`--bare-binary: expected lookup or given, got ${bareBinaryArg}`);
const BARE_BINARY: 'lookup' | 'given' = bareBinaryArg;
const SANDBOX = (args.sandbox ?? process.env.SANDBOX ?? 'on') !== 'off';
const COMMANDS = Number(args.commands ?? process.env.COMMANDS ?? 20);
if (COMMANDS !== 0 && !COMMAND_COUNTS.includes(COMMANDS))
  throw new Error(`--commands: expected 0 or one of ${COMMAND_COUNTS.join(', ')}, got ${COMMANDS}`);
const PAIRS: Record<string, MakeOverheadPair> = { claude: claudePair, codex: codexPair, cli: cliPair };
/** The sides of issue 13's comparison, in the overhead table. */
const SIDES = ['bare', 'bare+git', 'runtime'] as const;
/**
 * The sandbox's sides (issue 25): the runtime in the OS sandbox, and, where the agent can be scripted to run
 * Bash commands (the CLI runtime's fake agent), the runtime with COMMANDS commands, without and with it.
 */
const SANDBOX_SIDES = ['sandboxed', 'cmds', 'sandboxed+cmds'] as const;
type Side = (typeof SIDES)[number] | (typeof SANDBOX_SIDES)[number];
const sidesOf = (pair: OverheadPair): Side[] => [
  ...SIDES,
  ...(SANDBOX ? (['sandboxed'] as const) : []),
  ...(pair.runsCommands && COMMANDS > 0
    ? SANDBOX
      ? (['cmds', 'sandboxed+cmds'] as const)
      : (['cmds'] as const)
    : []),
];

const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(0));
const pct = (runtime: number, bare: number) => `${(((runtime - bare) / bare) * 100).toFixed(1)} %`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** One measured run of one side. */
interface Sample {
  wallMs: number;
  /** CPU ms of this process and what it started (see read-cpu-ms.ts; NaN without /proc). */
  cpuMs: number;
  /** Phase → ms (summed within the run). */
  phases: Map<string, number>;
}

async function measure(name: string, makePair: MakeOverheadPair) {
  let phases = new Map<string, number>();
  const onPhase = (timing: PhaseTiming) =>
    phases.set(timing.phase, (phases.get(timing.phase) ?? 0) + timing.ms);
  const pair = await makePair({ onPhase, prepareAhead: PREPARE_AHEAD, bareBinary: BARE_BINARY });
  const sides = sidesOf(pair);
  const samples: Record<Side, Sample[]> = {
    bare: [],
    'bare+git': [],
    runtime: [],
    sandboxed: [],
    cmds: [],
    'sandboxed+cmds': [],
  };
  const worktreesDir = join(pair.repoRoot, '.bench-worktrees');
  let counter = 0;
  const git = (argv: string[]) => runGit(argv, { cwd: pair.repoRoot });
  const run: Record<Side, () => Promise<void>> = {
    bare: () => pair.bare(pair.repoRoot, onPhase),
    // What anyone running an agent in isolation does around the bare session.
    'bare+git': async () => {
      counter += 1;
      const branch = `bench/${counter}`;
      const path = join(worktreesDir, String(counter));
      let started = performance.now();
      await git(['worktree', 'add', '--quiet', '-b', branch, path, 'main']);
      onPhase({ sessionID: 'bare', phase: 'worktree-create', ms: performance.now() - started });
      await pair.bare(path, onPhase);
      started = performance.now();
      await git(['worktree', 'remove', '--force', path]);
      await git(['branch', '-D', branch]);
      onPhase({ sessionID: 'bare', phase: 'cleanup', ms: performance.now() - started });
    },
    runtime: () => pair.throughRuntime({ sandboxed: false, commands: 0 }),
    sandboxed: () => pair.throughRuntime({ sandboxed: true, commands: 0 }),
    cmds: () => pair.throughRuntime({ sandboxed: false, commands: COMMANDS }),
    'sandboxed+cmds': () => pair.throughRuntime({ sandboxed: true, commands: COMMANDS }),
  };
  const once = async (side: Side): Promise<Sample> => {
    phases = new Map();
    const cpuBefore = readCpuMs() ?? Number.NaN;
    const started = performance.now();
    await run[side]();
    const wallMs = performance.now() - started;
    // The runtime's git work behind the result (removal, the next run's spare) is off the wall time the
    // engine waits, but its CPU is this side's, not the next side's.
    if (side !== 'bare' && side !== 'bare+git') await pair.idle();
    // Let the event loop reap the children that just exited, so their CPU counts for this side.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { wallMs, cpuMs: (readCpuMs() ?? Number.NaN) - cpuBefore, phases };
  };
  try {
    await mkdir(worktreesDir, { recursive: true });
    // Warm-up: the first session after install pays one-off costs.
    for (const side of sides) await once(side);
    for (let i = 0; i < RUNS; i += 1) {
      process.stderr.write(`${name}: run ${i + 1}/${RUNS}\r`);
      for (const side of sides) samples[side].push(await once(side));
    }
  } finally {
    await pair.close();
    await rm(worktreesDir, { recursive: true, force: true });
  }
  return { pair, samples, sides };
}

const medianOf = (samples: Sample[], value: (sample: Sample) => number) =>
  median(samples.map(value).filter((number) => !Number.isNaN(number)));

function printProfile(samples: Record<Side, Sample[]>, sides: readonly Side[]): void {
  const row = (label: string, value: (sample: Sample) => number) =>
    console.log(
      `    ${label.padEnd(32)}${sides.map((side) => ms(medianOf(samples[side], value)).padStart(15)).join('')}`,
    );
  console.log(`  phase profile (median ms)         ${sides.map((side) => side.padStart(15)).join('')}`);
  const names = new Set(
    sides.flatMap((side) => samples[side].flatMap((sample) => [...sample.phases.keys()])),
  );
  for (const phase of names) row(phase, (sample) => sample.phases.get(phase) ?? Number.NaN);
  row('(not in a phase)', (sample) => sample.wallMs - [...sample.phases.values()].reduce((a, b) => a + b, 0));
  row('total (wall)', (sample) => sample.wallMs);
  row('CPU (this process + what it ran)', (sample) => sample.cpuMs);
}

/**
 * What the OS sandbox costs a runtime: per run, `sandboxed − runtime`, wall ms and (when the CPU is read
 * from the bench's own cgroup, which sees the processes in the sandbox's PID namespace) CPU ms; per Bash
 * command, what it adds to COMMANDS commands over what they cost unsandboxed,
 * `((sandboxed+cmds − sandboxed) − (cmds − runtime)) / COMMANDS` (wall ms).
 */
function sandboxRow(name: string, samples: Record<Side, Sample[]>, sides: readonly Side[]): string {
  const wall = (side: Side) => medianOf(samples[side], (sample) => sample.wallMs);
  const cpu = (side: Side) => medianOf(samples[side], (sample) => sample.cpuMs);
  const perRun = wall('sandboxed') - wall('runtime');
  const perRunCpu = CPU_SOURCE === 'cgroup' ? cpu('sandboxed') - cpu('runtime') : Number.NaN;
  const perCommand = sides.includes('sandboxed+cmds')
    ? (wall('sandboxed+cmds') - wall('sandboxed') - (wall('cmds') - wall('runtime'))) / COMMANDS
    : Number.NaN;
  const one = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
  return (
    `| ${name} | ${ms(wall('runtime'))} | ${ms(wall('sandboxed'))} | ${one(perRun)} | ${one(perRunCpu)} | ` +
    `${one(wall('cmds'))} | ${one(wall('sandboxed+cmds'))} | ${one(perCommand)} |`
  );
}

/** Set by main() before anything runs. */
let CPU_SOURCE: CpuSource = 'none';

async function main(): Promise<void> {
  CPU_SOURCE = startCpuAccounting();
  const rows: string[] = [];
  const sandboxRows: string[] = [];
  const loadBefore = load();
  for (const name of RUNTIMES) {
    const makePair = PAIRS[name];
    if (!makePair)
      throw new Error(`--runtimes: unknown runtime '${name}' (expected ${Object.keys(PAIRS).join(', ')})`);
    const { pair, samples, sides } = await measure(name, makePair);
    console.log(`${name}: ${pair.runtimeLabel} vs ${pair.bareLabel}`);
    for (const side of sides) {
      const walls = samples[side].map((sample) => ms(sample.wallMs)).join(', ');
      console.log(
        `  ${side.padEnd(14)} median ${ms(medianOf(samples[side], (s) => s.wallMs))} ms  (${walls})`,
      );
    }
    printProfile(samples, sides);
    if (SANDBOX) sandboxRows.push(sandboxRow(name, samples, sides));
    const cells = (value: (sample: Sample) => number) => {
      const [bare, bareGit, runtime] = SIDES.map((side) => medianOf(samples[side], value)) as [
        number,
        number,
        number,
      ];
      return { bare, bareGit, runtime };
    };
    const wall = cells((sample) => sample.wallMs);
    const cpu = cells((sample) => sample.cpuMs);
    rows.push(
      `| ${name} | ${ms(wall.bare)} / ${ms(cpu.bare)} | ${ms(wall.bareGit)} / ${ms(cpu.bareGit)} | ` +
        `${ms(wall.runtime)} / ${ms(cpu.runtime)} | ${pct(wall.runtime, wall.bare)} / ${pct(cpu.runtime, cpu.bare)} | ` +
        `${pct(wall.runtime, wall.bareGit)} / ${pct(cpu.runtime, cpu.bareGit)} | ` +
        `${(wall.runtime / wall.bareGit).toFixed(3)} / ${(cpu.runtime / cpu.bareGit).toFixed(3)} |`,
    );
  }
  console.log(
    `\nadapter-overhead: medians of ${RUNS} interleaved runs, prepare-ahead ${PREPARE_AHEAD ? 'on' : 'off'}, bare binary ${BARE_BINARY}; ` +
      `load average ${loadBefore} → ${load()}`,
  );
  console.log(
    CPU_SOURCE === 'cgroup'
      ? "Each cell: wall ms / CPU ms (this process and every process it started, from the bench's cgroup)."
      : 'Each cell: wall ms / CPU ms (this process and its children; not what runs in a sandbox).',
  );
  console.log(
    '| runtime | bare | bare+git | runtime | runtime vs bare | runtime vs bare+git | ratio runtime / bare+git |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (sandboxRows.length === 0) return;
  console.log(
    `\nThe OS sandbox (issue 25): per run, sandboxed − runtime (wall ms, and CPU ms when read from the cgroup); ` +
      `per Bash command, over ${COMMANDS} commands (sandboxed+cmds − sandboxed) − (cmds − runtime), divided by ` +
      'their number (wall ms).',
  );
  console.log(
    `| runtime | runtime | sandboxed | sandbox per run | CPU per run | ${COMMANDS} cmds | sandboxed, ${COMMANDS} cmds | sandbox per Bash command |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of sandboxRows) console.log(row);
}

await main();
