/**
 * Session log persistence overhead (issue #28 §5): a chatty implementor session on the real Claude Agent SDK
 * (the scripted model server on 127.0.0.1): `STEPS` turns, each some text and a Bash call printing
 * `OUTPUT_LINES` numbered lines (`head -n`; ~`OUTPUT_LINES * 5` bytes of tool output a turn), then `blocked`. Run through
 * the Claude adapter with transcripts off and on, interleaved run by run after one warm-up of each, it
 * prints each side's median wall time and this process's CPU time (the transcript is written here), their
 * difference, and the transcript writer's own cost measured directly: the time spent inside its `record()`
 * and `note()` calls plus the wait for its last write, as a share of the run's wall time. Target: ≤ 2 %.
 * Run: npm run bench:session-log   (RUNS=5 STEPS=40 OUTPUT_LINES=2000 to change the defaults)
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createModelServer } from '../../src/model-server/index.ts';
import type { Step } from '../../src/model-server/scenario-types.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import type { SessionLog } from '../../src/session-log/create-session-log.ts';
import { createSessionLogFactory } from '../../src/session-log/create-session-log-factory.ts';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import {
  BLOCKED_OUTPUT,
  createBenchWorktrees,
  expectBlocked,
  implementorParams,
} from '../adapter-overhead/overhead-pair.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const STEPS = Number(process.env.STEPS ?? 40);
const OUTPUT_LINES = Number(process.env.OUTPUT_LINES ?? 2000);

const steps: Step[] = [
  ...Array.from({ length: STEPS }, (_, index) => ({
    content: [
      {
        type: 'text' as const,
        text: `Step ${index}: looking at the numbers again. ${'Thinking. '.repeat(20)}`,
      },
      { type: 'tool_use' as const, name: 'Bash', input: { command: `head -n ${OUTPUT_LINES} numbers.txt` } },
    ],
  })),
  ...Array.from({ length: 4 }, () => ({ structuredOutput: BLOCKED_OUTPUT })),
];

/** The transcript writer's own time: its synchronous calls and the wait for its last write. */
let writerMs = 0;
function timed(log: SessionLog): SessionLog {
  const time = <T>(work: () => T): T => {
    const start = performance.now();
    try {
      return work();
    } finally {
      writerMs += performance.now() - start;
    }
  };
  return {
    filePath: log.filePath,
    record: (message) => time(() => log.record(message)),
    note: (text) => time(() => log.note(text)),
    flush: () => log.flush(),
    async finish(outcome, detail) {
      const start = performance.now();
      await log.finish(outcome, detail);
      writerMs += performance.now() - start;
    },
  };
}

const server = await createModelServer({ name: 'chatty', routes: [{ name: 'any', steps }] });
const repo = await createTempGitRepo();
await repo.commit('base', {
  '.claude/agents/implementor.md':
    '---\ndescription: bench\ntools: Read, Write, Edit, Bash\n---\nYou implement.\n',
  '.claude/CLAUDE.md': 'Conventions.\n',
  'numbers.txt': Array.from({ length: OUTPUT_LINES }, (_, line) => `${line + 1}\n`).join(''),
});
const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-bench-log-'));
const logsDir = join(stateDir, 'sessions');
const worktrees = createBenchWorktrees(repo.root, true);
const factory = createSessionLogFactory({ logsDir, enabled: true, logger: silentLogger });
const adapterWith = (logged: boolean) =>
  createClaudeAdapter({
    repoRoot: repo.root,
    defaultBranch: 'main',
    worktrees,
    contextPaths: ['.claude/CLAUDE.md'],
    bashValidatorHook: createBashValidatorHook(),
    logger: silentLogger,
    setupCommand: 'none',
    stateDir,
    maxAgentDuration: 600,
    logging: { agentSessions: logged, logsDir },
    extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' },
    ...(logged && { createSessionLog: (params) => timed(factory(params)) }),
  });
const adapters = { off: adapterWith(false), on: adapterWith(true) };

async function once(side: 'off' | 'on') {
  writerMs = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  expectBlocked(await (await adapters[side].startAgent(implementorParams())).result);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  await worktrees.idle();
  return { wallMs, cpuMs: (used.user + used.system) / 1000, writerMs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

try {
  console.log(
    `session log overhead: ${STEPS} turns of ${OUTPUT_LINES} lines of Bash output, ${RUNS} runs a side (load ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')})`,
  );
  await once('off');
  await once('on');
  const samples = {
    off: [] as Awaited<ReturnType<typeof once>>[],
    on: [] as Awaited<ReturnType<typeof once>>[],
  };
  for (let run = 0; run < RUNS; run++)
    for (const side of ['off', 'on'] as const) samples[side].push(await once(side));
  const files = await readdir(logsDir);
  const sizes = await Promise.all(files.map(async (name) => (await stat(join(logsDir, name))).size));
  const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
  for (const side of ['off', 'on'] as const) {
    const wall = median(samples[side].map((s) => s.wallMs));
    const cpu = median(samples[side].map((s) => s.cpuMs));
    console.log(
      `  transcripts ${side.padEnd(3)}: wall median ${ms(wall)}   CPU (this process) median ${ms(cpu)}   samples ${samples[side].map((s) => s.wallMs.toFixed(0)).join(' ')}`,
    );
  }
  const shares = samples.on.map((s) => (100 * s.writerMs) / s.wallMs);
  const wallOff = median(samples.off.map((s) => s.wallMs));
  const wallOn = median(samples.on.map((s) => s.wallMs));
  const cpuOff = median(samples.off.map((s) => s.cpuMs));
  const cpuOn = median(samples.on.map((s) => s.cpuMs));
  console.log(
    `  transcript ${(median(sizes) / 1024).toFixed(0)} KiB a run; writer's own time median ${median(samples.on.map((s) => s.writerMs)).toFixed(1)} ms = ${median(shares).toFixed(2)} % of the run (max ${Math.max(...shares).toFixed(2)} %)`,
  );
  console.log(
    `  on − off: wall ${(wallOn - wallOff).toFixed(0)} ms (${((100 * (wallOn - wallOff)) / wallOff).toFixed(1)} %, noise on a loaded machine), CPU ${(cpuOn - cpuOff).toFixed(0)} ms (${((100 * (cpuOn - cpuOff)) / wallOff).toFixed(2)} % of the run's wall time)`,
  );
} finally {
  await worktrees.settle();
  await server.close();
  await repo.cleanup();
  await rm(stateDir, { recursive: true, force: true });
}
