/**
 * Adapter overhead per runtime: the same one-step implementor scenario (the agent answers `blocked` at once)
 * through each runtime — worktree, prompt, environment, transcript off, cleanup; setup command `none` — vs
 * the bare SDK or CLI answering it in the repository, interleaved. Prints medians and ratios.
 *   Claude: the Claude adapter vs a bare `query()` (scripted Messages endpoint).
 *   Codex:  the Codex runtime vs a bare codex-sdk thread (scripted Responses endpoint).
 *   CLI:    the CLI runtime (preset claude) vs the fake agent CLI run bare.
 * Run: npm run bench:adapter   (RUNTIMES=claude,codex,cli RUNS=10)
 */
import { claudePair } from './claude-pair.ts';
import { cliPair } from './cli-pair.ts';
import { codexPair } from './codex-pair.ts';
import type { OverheadPair } from './overhead-pair.ts';

const RUNS = Number(process.env.RUNS ?? 10);
const RUNTIMES = (process.env.RUNTIMES ?? 'claude,codex,cli').split(',').map((name) => name.trim());
const PAIRS: Record<string, () => Promise<OverheadPair>> = {
  claude: claudePair,
  codex: codexPair,
  cli: cliPair,
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const timed = async (step: () => Promise<void>) => {
  const started = performance.now();
  await step();
  return performance.now() - started;
};
const list = (times: number[]) => times.map((t) => t.toFixed(0)).join(', ');

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const name of RUNTIMES) {
    const makePair = PAIRS[name];
    if (!makePair)
      throw new Error(`RUNTIMES: unknown runtime '${name}' (expected ${Object.keys(PAIRS).join(', ')})`);
    const pair = await makePair();
    try {
      // Warm-up: the first session after install pays one-off costs.
      await pair.bare();
      await pair.throughRuntime();
      const bareTimes: number[] = [];
      const runtimeTimes: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        bareTimes.push(await timed(pair.bare));
        runtimeTimes.push(await timed(pair.throughRuntime));
      }
      const bare = median(bareTimes);
      const runtime = median(runtimeTimes);
      console.log(`${name}`);
      console.log(`  ${pair.bareLabel}: median ${bare.toFixed(0)} ms  (${list(bareTimes)})`);
      console.log(`  ${pair.runtimeLabel}: median ${runtime.toFixed(0)} ms  (${list(runtimeTimes)})`);
      const overhead = ((runtime - bare) / bare) * 100;
      rows.push(
        `| ${name} | ${bare.toFixed(0)} ms | ${runtime.toFixed(0)} ms | ${(runtime - bare).toFixed(0)} ms | ${overhead.toFixed(1)} % | ${(runtime / bare).toFixed(3)} |`,
      );
    } finally {
      await pair.close();
    }
  }
  console.log('\nadapter-overhead (medians of', RUNS, 'runs each)');
  console.log('| runtime | bare | runtime | overhead | overhead % | ratio |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
