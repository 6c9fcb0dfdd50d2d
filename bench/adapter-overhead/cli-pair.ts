import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/logging/logger.ts';
import { createCliRuntime } from '../../src/runtimes/cli/create-cli-runtime.ts';
import { createTempGitRepo } from '../../src/test-support/create-temp-git-repo.ts';
import { FAKE_AGENT_PROGRAM } from '../../test/support/cli-runtime-fixture.ts';
import {
  BENCH_PROMPT,
  BLOCKED_OUTPUT,
  createBareLaps,
  createBenchWorktrees,
  expectBlocked,
  implementorParams,
  type MakeOverheadPair,
} from './overhead-pair.ts';

/** The CLI runtime (preset claude: worktree, scrubbed env, signal file, post-run checks) vs the fake agent bare. */
export const cliPair: MakeOverheadPair = async ({ onPhase, prepareAhead }) => {
  const repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# bench\n' });
  const worktrees = createBenchWorktrees(repo.root, prepareAhead);
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-cli-'));
  const script = join(dir, 'script.json');
  const { role: _role, ...result } = BLOCKED_OUTPUT;
  await writeFile(script, JSON.stringify({ rounds: [{ steps: [{ signal: { status: 'done', result } }] }] }));
  const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FAKE_AGENT_SCRIPT: script };
  const runtime = createCliRuntime({
    repoRoot: repo.root,
    defaultBranch: 'main',
    worktrees,
    logger: silentLogger,
    stateDir: join(dir, 'state'),
    preset: 'claude',
    program: FAKE_AGENT_PROGRAM,
    setupCommand: 'none',
    maxAgentDuration: 120,
    onPhase,
    logging: { agentSessions: false, logsDir: join(dir, 'logs') },
    baseEnv,
    passThroughEnv: ['FAKE_AGENT_SCRIPT'],
  });
  const [file, ...programArgs] = FAKE_AGENT_PROGRAM;

  return {
    bareLabel: 'the fake agent CLI run bare',
    runtimeLabel: 'the CLI runtime (preset claude)',
    repoRoot: repo.root,
    async bare(cwd, onBarePhase) {
      const lap = createBareLaps('bare', onBarePhase);
      // The preset's own command line, in the repository, prompt on stdin; then the signal file.
      const child = spawn(
        file!,
        [...programArgs, '-p', '--permission-mode', 'bypassPermissions', '--session-id', crypto.randomUUID()],
        { cwd, env: baseEnv, stdio: ['pipe', 'pipe', 'inherit'] },
      );
      child.stdout.resume();
      child.stdin.end(BENCH_PROMPT);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      lap('spawn-to-exit');
      if (code !== 0) throw new Error(`the fake agent exited with ${code}`);
      const signalPath = join(cwd, '.flotilla', 'signal.json');
      const signal = JSON.parse(await readFile(signalPath, 'utf8')) as { result: { outcome: string } };
      expectBlocked({ role: 'implementor', ...signal.result });
      await rm(join(cwd, '.flotilla'), { recursive: true, force: true });
      lap('signal-read');
    },
    async throughRuntime() {
      const handle = await runtime.startAgent(implementorParams());
      expectBlocked(await handle.result);
    },
    idle: () => worktrees.idle(),
    async close() {
      await worktrees.settle();
      await repo.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
