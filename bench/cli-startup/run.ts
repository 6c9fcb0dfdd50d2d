/**
 * CLI start-up benchmark: wall time of whole `flotilla` invocations (process start → exit) in a fresh
 * repository with a tracker, for the commands people and hooks run often. `hook pre-tool-use` runs once per
 * Bash call of an interactive Claude Code session that uses it. Run: npm run bench:cli
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';

const ROUNDS = 10;
const BIN = fileURLToPath(new URL('../../bin/flotilla.js', import.meta.url));

interface Case {
  label: string;
  args: string[];
  input?: string;
  /** Exit codes that mean the command did what it should. */
  ok: number[];
}

const repo = await createTempGitRepo();
await repo.commit('base', { 'README.md': '# bench\n' });
const cases: Case[] = [
  { label: 'node (no Flotilla, baseline)', args: [], ok: [0] },
  { label: 'flotilla --help', args: ['--help'], ok: [0] },
  { label: 'flotilla work list', args: ['work', 'list'], ok: [0] },
  { label: 'flotilla runs', args: ['runs'], ok: [0] },
  {
    label: 'flotilla hook pre-tool-use (allowed)',
    args: ['hook', 'pre-tool-use'],
    input: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'git status' } }),
    ok: [0],
  },
  { label: "flotilla bash-check -- 'rm -rf /'", args: ['bash-check', '--', 'rm -rf /'], ok: [2] },
];

function invoke(entry: Case): number {
  const args = entry.args.length === 0 ? ['-e', ''] : [BIN, ...entry.args];
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    cwd: repo.root,
    input: entry.input ?? '',
    encoding: 'utf8',
  });
  const elapsed = performance.now() - started;
  if (!entry.ok.includes(result.status ?? -1)) {
    throw new Error(`${entry.label} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return elapsed;
}

try {
  // Creates the tracker database once, so `work list` measures a read, not a first-time migration.
  invoke(cases[2]!);
  const lines = [
    `flotilla CLI start-up: ${ROUNDS} runs each after one warm-up (bin/flotilla.js runs dist/ when it is current, else the sources through tsx; \`npm run build\` first)`,
  ];
  for (const entry of cases) {
    invoke(entry);
    const samples = Array.from({ length: ROUNDS }, () => invoke(entry)).sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)]!;
    lines.push(
      `  ${entry.label.padEnd(40)} median ${median.toFixed(0).padStart(5)} ms   min ${samples[0]!.toFixed(0).padStart(5)} ms   max ${samples.at(-1)!.toFixed(0).padStart(5)} ms`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await repo.cleanup();
}
