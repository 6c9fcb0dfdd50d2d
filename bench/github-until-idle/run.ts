/**
 * `flotilla run --until-idle` on provider github, N times in a row (default 20; `RUNS=5` for fewer): each run
 * is the end-to-end test in test/cli/run-github.test.ts that reproduces issue #26's race — a reviewer token,
 * a CI that has already failed the first head when the pull request is first read, the rework, a green head,
 * the reviewer's approval and `flotilla merge` — in its own vitest process (a fresh fake GitHub, repository
 * and model server each time). Prints how many ran, how many exited 0, and the wall time of each.
 */
import { spawnSync } from 'node:child_process';

const runs = Number(process.env.RUNS ?? 20);
const test = 'a reviewer token and a fast CI';
const times: number[] = [];
let passed = 0;
for (let index = 1; index <= runs; index++) {
  const started = Date.now();
  const result = spawnSync(
    'npx',
    ['vitest', 'run', 'test/cli/run-github.test.ts', '-t', test, '--reporter=dot'],
    { env: { ...process.env, IS_SANDBOX: '1' }, encoding: 'utf8' },
  );
  const seconds = (Date.now() - started) / 1000;
  times.push(seconds);
  if (result.status === 0) passed++;
  else process.stderr.write(`${result.stdout}\n${result.stderr}\n`);
  process.stdout.write(
    `run ${index}/${runs}: ${result.status === 0 ? 'exit 0' : `FAILED (${result.status})`} in ${seconds.toFixed(1)} s\n`,
  );
}
const sorted = [...times].sort((a, b) => a - b);
const total = times.reduce((sum, time) => sum + time, 0);
process.stdout.write(
  `${passed}/${runs} runs exited 0; total ${total.toFixed(0)} s, median ${sorted[Math.floor(runs / 2)]?.toFixed(1)} s, slowest ${sorted.at(-1)?.toFixed(1)} s\n`,
);
process.exitCode = passed === runs ? 0 : 1;
