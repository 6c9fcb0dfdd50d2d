import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/logging/logger.ts';
import { createCliRuntime } from '../../src/runtimes/cli/create-cli-runtime.ts';
import type { Sandbox } from '../../src/sandbox/sandbox-types.ts';
import { FAKE_AGENT_PROGRAM } from '../../test/support/cli-runtime-fixture.ts';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import {
  BENCH_PROMPT,
  BLOCKED_OUTPUT,
  createBareLaps,
  createBenchSandbox,
  createBenchWorktrees,
  expectBlocked,
  implementorParams,
  type MakeOverheadPair,
} from './overhead-pair.ts';

/** The command counts the fake agent is scripted for (`--commands`). */
export const COMMAND_COUNTS = [10, 20, 50, 100];
const commandsPrompt = (count: number) => `\nRun ${count} commands.\n`;

/** The CLI runtime (preset claude: worktree, scrubbed env, signal file, post-run checks) vs the fake agent bare. */
export const cliPair: MakeOverheadPair = async ({ onPhase, prepareAhead }) => {
  const repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# bench\n' });
  const worktrees = createBenchWorktrees(repo.root, prepareAhead);
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-cli-'));
  // Readable inside the OS sandbox (which hides the real /tmp): the repository, outside any worktree.
  const script = join(repo.root, '.bench-agent-script.json');
  const { role: _role, ...result } = BLOCKED_OUTPUT;
  const answer = { signal: { status: 'done', result } };
  await writeFile(
    script,
    JSON.stringify({
      rounds: [
        // The same answer after `commands` Bash commands (the prompt says how many).
        ...COMMAND_COUNTS.map((count) => ({
          promptIncludes: commandsPrompt(count),
          steps: [...Array.from({ length: count }, () => ({ run: 'true' })), answer],
        })),
        { promptIncludes: 'Do nothing.', steps: [answer] },
      ],
    }),
  );
  // A model endpoint on 127.0.0.1, as a scripted or local model would be: sandboxed, the agent reaches it
  // through the network forwarder (the fake agent never calls it; the forwarder's cost is what counts).
  const model = createServer((_request, response) => response.end('{}'));
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const baseEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FAKE_AGENT_SCRIPT: script,
    FAKE_AGENT_CALLS: join(dir, 'calls.jsonl'),
    // The fake agent runs through tsx, whose compile cache lives in the temporary directory: fresh in every
    // sandbox (its private /tmp), warm outside. Off on every side, so each compiles alike (~50 ms).
    TSX_DISABLE_CACHE: '1',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}`,
  };
  const makeRuntime = (sandbox?: Sandbox) =>
    createCliRuntime({
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
      // Sandboxed, the calls log goes to the sandbox's private /tmp (the script's directory is read-only).
      baseEnv:
        sandbox === undefined ? baseEnv : { ...baseEnv, FAKE_AGENT_CALLS: '/tmp/fake-agent-calls.jsonl' },
      passThroughEnv: ['FAKE_AGENT_SCRIPT', 'FAKE_AGENT_CALLS', 'TSX_DISABLE_CACHE'],
      ...(sandbox !== undefined && { sandbox }),
    });
  const runtimes = { off: makeRuntime(), on: makeRuntime(createBenchSandbox()) };
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
    runsCommands: true,
    async throughRuntime({ sandboxed, commands }) {
      const params = implementorParams();
      const prompt = commands === 0 ? params.prompt : `${params.prompt}${commandsPrompt(commands)}`;
      const handle = await runtimes[sandboxed ? 'on' : 'off'].startAgent({ ...params, prompt });
      expectBlocked(await handle.result);
    },
    idle: () => worktrees.idle(),
    async close() {
      await worktrees.settle();
      await new Promise((resolve) => model.close(resolve));
      await repo.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
