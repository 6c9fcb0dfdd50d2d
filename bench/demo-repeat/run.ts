/**
 * Each demo N times in a row (default 20; `RUNS=5` for fewer), as a user runs it: `flotilla demo --runtime R`
 * (and `--provider github`) in a fresh process, its own throwaway repository and model server each time.
 * `DEMOS=claude,codex,cli,github` picks which (default: all four). Prints each run's exit and wall time, then
 * per demo how many exited 0, the median and the slowest; exits 1 if any run failed.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const DEMO_ARGS: Record<string, string[]> = {
  claude: ['demo', '--runtime', 'claude'],
  codex: ['demo', '--runtime', 'codex'],
  cli: ['demo', '--runtime', 'cli'],
  github: ['demo', '--provider', 'github'],
};

const runs = Number(process.env.RUNS ?? 20);
const demos = (process.env.DEMOS ?? Object.keys(DEMO_ARGS).join(',')).split(',').filter(Boolean);
const bin = fileURLToPath(new URL('../../bin/flotilla.js', import.meta.url));
const summaries: string[] = [];
let failures = 0;

for (const demo of demos) {
  const args = DEMO_ARGS[demo];
  if (args === undefined)
    throw new Error(`DEMOS: unknown demo '${demo}' (expected ${Object.keys(DEMO_ARGS).join(', ')})`);
  const times: number[] = [];
  let passed = 0;
  for (let index = 1; index <= runs; index++) {
    const started = Date.now();
    const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: process.env });
    const seconds = (Date.now() - started) / 1000;
    times.push(seconds);
    if (result.status === 0) passed++;
    else
      process.stderr.write(
        `${demo} run ${index} exited ${result.status}:\n${result.stdout}\n${result.stderr}\n`,
      );
    process.stdout.write(
      `${demo} ${index}/${runs}: ${result.status === 0 ? 'exit 0' : `FAILED (${result.status})`} in ${seconds.toFixed(1)} s\n`,
    );
  }
  failures += runs - passed;
  const sorted = [...times].sort((a, b) => a - b);
  summaries.push(
    `${demo}: ${passed}/${runs} exited 0; median ${sorted[Math.floor(runs / 2)]?.toFixed(1)} s, slowest ${sorted.at(-1)?.toFixed(1)} s`,
  );
}
process.stdout.write(`\n${summaries.join('\n')}\n`);
process.exitCode = failures === 0 ? 0 : 1;
