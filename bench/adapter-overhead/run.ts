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
 * Run: npm run bench:adapter -- --runs 8 --runtimes claude,codex,cli   (or RUNS=8 RUNTIMES=… in the env)
 */
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PhaseTiming } from '../../src/engine/runtime-contract/index.ts';
import { runGit } from '../../src/process/run-command.ts';
import { claudePair } from './claude-pair.ts';
import { cliPair } from './cli-pair.ts';
import { codexPair } from './codex-pair.ts';
import type { MakeOverheadPair } from './overhead-pair.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string' }, runtimes: { type: 'string' } },
});
const RUNS = Number(args.runs ?? process.env.RUNS ?? 8);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a positive integer, got ${RUNS}`);
const RUNTIMES = (args.runtimes ?? process.env.RUNTIMES ?? 'claude,codex,cli')
  .split(',')
  .map((name) => name.trim());
const PAIRS: Record<string, MakeOverheadPair> = { claude: claudePair, codex: codexPair, cli: cliPair };
const SIDES = ['bare', 'bare+git', 'runtime'] as const;
type Side = (typeof SIDES)[number];

const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(0)}`);
const pct = (runtime: number, bare: number) => `${(((runtime - bare) / bare) * 100).toFixed(1)} %`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Per side: each run's total and its phases (summed within the run). */
interface SideSamples {
  totals: number[];
  phases: Map<string, number[]>;
}

async function measure(name: string, makePair: MakeOverheadPair) {
  let current = new Map<string, number>();
  const onPhase = ({ phase, ms }: PhaseTiming) => current.set(phase, (current.get(phase) ?? 0) + ms);
  const pair = await makePair(onPhase);
  const samples = Object.fromEntries(
    SIDES.map((side) => [side, { totals: [], phases: new Map() }]),
  ) as unknown as Record<Side, SideSamples>;
  const worktreesDir = join(pair.repoRoot, '.bench-worktrees');
  let counter = 0;
  const git = (argv: string[]) => runGit(argv, { cwd: pair.repoRoot });
  const lap = (phase: string, started: number) => {
    const now = performance.now();
    onPhase({ sessionID: 'bare', phase, ms: now - started });
    return now;
  };
  const run: Record<Side, () => Promise<void>> = {
    bare: () => pair.bare(pair.repoRoot, onPhase),
    'bare+git': async () => {
      counter += 1;
      const branch = `bench/${counter}`;
      const path = join(worktreesDir, String(counter));
      let started = performance.now();
      await git(['worktree', 'add', '--quiet', '-b', branch, path, 'main']);
      started = lap('worktree-create', started);
      await pair.bare(path, onPhase);
      started = performance.now();
      await git(['worktree', 'remove', '--force', path]);
      await git(['branch', '-D', branch]);
      lap('cleanup', started);
    },
    runtime: () => pair.throughRuntime(),
  };
  const once = async (side: Side, record: boolean) => {
    current = new Map();
    const started = performance.now();
    await run[side]();
    const total = performance.now() - started;
    if (!record) return;
    samples[side].totals.push(total);
    for (const [phase, value] of current) {
      const list = samples[side].phases.get(phase) ?? [];
      list.push(value);
      samples[side].phases.set(phase, list);
    }
  };
  try {
    await mkdir(worktreesDir, { recursive: true });
    // Warm-up: the first session after install pays one-off costs.
    for (const side of SIDES) await once(side, false);
    for (let i = 0; i < RUNS; i += 1) {
      process.stderr.write(`${name}: run ${i + 1}/${RUNS}\r`);
      for (const side of SIDES) await once(side, true);
    }
  } finally {
    await pair.close();
    await rm(worktreesDir, { recursive: true, force: true });
  }
  return { pair, samples };
}

function printProfile(samples: Record<Side, SideSamples>): void {
  const names = [...new Set(SIDES.flatMap((side) => [...samples[side].phases.keys()]))];
  console.log(`  phase profile (median ms)        ${SIDES.map((side) => side.padStart(9)).join('')}`);
  for (const phase of names) {
    const cells = SIDES.map((side) => ms(median(samples[side].phases.get(phase) ?? [])).padStart(9));
    console.log(`    ${phase.padEnd(30)}${cells.join('')}`);
  }
  const unaccounted = SIDES.map((side) => {
    const { totals, phases } = samples[side];
    const rest = totals.map(
      (total, run) => total - [...phases.values()].reduce((sum, list) => sum + (list[run] ?? 0), 0),
    );
    return ms(median(rest)).padStart(9);
  });
  console.log(`    ${'(not in a phase)'.padEnd(30)}${unaccounted.join('')}`);
  console.log(
    `    ${'total'.padEnd(30)}${SIDES.map((side) => ms(median(samples[side].totals)).padStart(9)).join('')}`,
  );
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const loadBefore = load();
  for (const name of RUNTIMES) {
    const makePair = PAIRS[name];
    if (!makePair)
      throw new Error(`--runtimes: unknown runtime '${name}' (expected ${Object.keys(PAIRS).join(', ')})`);
    const { pair, samples } = await measure(name, makePair);
    const [bare, bareGit, runtime] = SIDES.map((side) => median(samples[side].totals)) as [
      number,
      number,
      number,
    ];
    console.log(`${name}: ${pair.runtimeLabel} vs ${pair.bareLabel}`);
    for (const side of SIDES)
      console.log(
        `  ${side.padEnd(9)} median ${ms(median(samples[side].totals))} ms  (${samples[side].totals.map(ms).join(', ')})`,
      );
    printProfile(samples);
    rows.push(
      `| ${name} | ${ms(bare)} | ${ms(bareGit)} | ${ms(runtime)} | ${pct(runtime, bare)} | ${pct(runtime, bareGit)} | ${(runtime / bareGit).toFixed(3)} |`,
    );
  }
  console.log(
    `\nadapter-overhead: medians of ${RUNS} interleaved runs; load average ${loadBefore} → ${load()}`,
  );
  console.log(
    '| runtime | bare ms | bare+git ms | runtime ms | vs bare | vs bare+git | ratio (runtime / bare+git) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
