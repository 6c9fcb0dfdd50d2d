/**
 * Sandbox cost benchmark: what bubblewrap adds per agent run (wrap + start + exit of a trivial command,
 * sandboxed or not, with and without the network forwarder, with the per-run git directory) and per command
 * an agent runs inside an already-started sandbox (200 `sh -c true`, inside vs outside).
 * Targets: < 50 ms per run, < 5 ms per command. Run: npm run bench:sandbox
 */
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.ts';
import type { SandboxRequest } from '../../src/sandbox/sandbox-types.ts';
import { createSandboxFixture } from '../../test/support/sandbox/create-sandbox-fixture.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const COMMANDS = 200;

const fixture = await createSandboxFixture();
const server = createServer((_request, response) => response.end('ok'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const sandbox = createSandbox(fixture.settings, { homeDir: fixture.home });
/** The forwarder where perl is not on PATH (and before 2026-11-27): node alone, the command waits for it. */
const nodeAlone = createSandbox(fixture.settings, { homeDir: fixture.home, perlPath: null });
/** bash: one HTTP request to 127.0.0.1:$1 through the forwarder, the moment the command starts. */
const FIRST_REQUEST = `exec 3<>/dev/tcp/127.0.0.1/$1 && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 | grep -q '^ok$'`;

/** Spawns and waits; resolves with the exit code. */
function run(file: string, args: readonly string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'ignore', 'inherit'], cwd: fixture.worktreeA });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

async function timeIt(action: () => Promise<void>): Promise<number[]> {
  await action(); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

const median = (samples: number[]) => samples[Math.floor(samples.length / 2)] ?? Number.NaN;
const p90 = (samples: number[]) => samples[Math.floor(samples.length * 0.9)] ?? Number.NaN;
const format = (ms: number) => `${ms.toFixed(1)} ms`;

async function sandboxedRun(
  request: SandboxRequest,
  file: string,
  args: string[],
  using = sandbox,
): Promise<void> {
  const command = await using.wrap(request, file, args);
  try {
    const code = await run(command.file, command.args, command.env);
    if (code !== 0) throw new Error(`sandboxed ${file} exited with ${code}`);
  } finally {
    await command.dispose();
  }
}

const plain = fixture.request();
const withNetwork = fixture.request({ network: [`http://127.0.0.1:${port}`, 'https://api.anthropic.com'] });
const gitState = join(fixture.base, 'git-state');
const withGit = fixture.request({
  writable: [fixture.worktreeA, gitState],
  gitWorktree: { worktree: fixture.worktreeA, gitStateDir: gitState },
});

const perRun: [string, () => Promise<void>][] = [
  ['unsandboxed `true`', async () => void (await run('/bin/true', [], plain.env))],
  [
    "unsandboxed `node -e 0` (the forwarder's floor)",
    async () => void (await run(process.execPath, ['-e', '0'], plain.env)),
  ],
  ['sandboxed `true` (wrap + bwrap)', () => sandboxedRun(plain, 'true', [])],
  ['sandboxed `true`, network forwarder', () => sandboxedRun(withNetwork, 'true', [])],
  ['sandboxed `true`, network forwarder, node alone', () => sandboxedRun(withNetwork, 'true', [], nodeAlone)],
  [
    'sandboxed `node -e 0` (an agent is a node or native CLI)',
    () => sandboxedRun(plain, process.execPath, ['-e', '0']),
  ],
  [
    'sandboxed `node -e 0`, network forwarder',
    () => sandboxedRun(withNetwork, process.execPath, ['-e', '0']),
  ],
  [
    'sandboxed `node -e 0`, network forwarder, node alone',
    () => sandboxedRun(withNetwork, process.execPath, ['-e', '0'], nodeAlone),
  ],
  [
    'sandboxed first request answered, forwarder',
    () => sandboxedRun(withNetwork, 'bash', ['-c', FIRST_REQUEST, '--', String(port)]),
  ],
  [
    'sandboxed first request answered, node alone',
    () => sandboxedRun(withNetwork, 'bash', ['-c', FIRST_REQUEST, '--', String(port)], nodeAlone),
  ],
  [
    'unsandboxed first request answered',
    async () => {
      const code = await run('/bin/bash', ['-c', FIRST_REQUEST, '--', String(port)], plain.env);
      if (code !== 0) throw new Error(`unsandboxed request exited with ${code}`);
    },
  ],
  [
    'sandboxed `true`, fresh per-run git dir',
    async () => {
      await rm(gitState, { recursive: true, force: true });
      await mkdir(gitState);
      await sandboxedRun(withGit, 'true', []);
    },
  ],
  [
    'wrap() alone (no spawn)',
    async () => {
      const command = await sandbox.wrap(plain, 'true', []);
      await command.dispose();
    },
  ],
];

console.log(`Sandbox cost (${ROUNDS} rounds each, median / p90)\n`);
console.log('Per run:');
const results: Record<string, number> = {};
for (const [label, action] of perRun) {
  const samples = await timeIt(action);
  results[label] = median(samples);
  console.log(
    `  ${label.padEnd(56)} ${format(median(samples)).padStart(9)} ${format(p90(samples)).padStart(9)}`,
  );
}

const loop = `i=0; while [ $i -lt ${COMMANDS} ]; do sh -c true; i=$((i+1)); done`;
const outside = await timeIt(async () => void (await run('/bin/sh', ['-c', loop], plain.env)));
const inside = await timeIt(() => sandboxedRun(plain, 'sh', ['-c', loop]));
const perCommandOutside = median(outside) / COMMANDS;
const perCommandInside = (median(inside) - (results['sandboxed `true` (wrap + bwrap)'] ?? 0)) / COMMANDS;
console.log(`\nPer command (${COMMANDS} × \`sh -c true\` in one shell):`);
console.log(`  outside                                      ${format(perCommandOutside).padStart(9)}`);
console.log(`  inside one sandbox (its start subtracted)    ${format(perCommandInside).padStart(9)}`);
console.log(
  `  added by the sandbox                         ${format(perCommandInside - perCommandOutside).padStart(9)}`,
);

server.close();
await fixture.cleanup();
