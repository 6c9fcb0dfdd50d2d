/**
 * `flotilla run` as a user runs it: a child process in a real repository, agents through the real Claude
 * Agent SDK answered by the scripted model server on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelServer, Scenario } from '../../src/model-server/index.ts';
import { createEngineStatePersistence, createSqliteTracker, openDatabase } from '../../src/storage/index.ts';
import { agentProcessesOf } from '../support/agent-processes-of.ts';
import { buildFakeAgentScript } from '../support/build-fake-agent-script.ts';
import { FAKE_AGENT_PROGRAM } from '../support/cli-runtime-fixture.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import {
  createSessionCounter,
  finishScenario,
  GREET_COMPLETED,
  oneItemScenario,
  slowImplementorScenario,
} from '../support/run-scenarios.ts';
import { isProcessRunning } from '../support/shared/is-process-running.ts';
import {
  flotillaLogTail,
  type RunningFlotilla,
  startFlotillaProcess,
  waitForCondition,
} from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
/** The fake agent's script directories (outside the repositories). */
const scriptDirs: string[] = [];
afterEach(async () => {
  await fixtures.cleanup();
  for (const dir of scriptDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startRun(
  repoRoot: string,
  server: ModelServer | Record<string, string>,
  gitEnv: Record<string, string>,
  args: string[] = [],
): RunningFlotilla {
  // A model server: the Claude runtime against it; else the environment the runtime's setup gave.
  const agentEnv =
    'url' in server && typeof server.url === 'string'
      ? { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
      : (server as Record<string, string>);
  return startFlotillaProcess(fixtures, {
    cwd: repoRoot,
    args: ['run', '--headless', ...args],
    env: { ...gitEnv, ...agentEnv },
  });
}

/** `run.exited`, or an error holding the run's output and log tail when it does not exit in time. */
async function exitedWithin(
  run: RunningFlotilla,
  repoRoot: string,
  timeoutMs: number,
): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const log = flotillaLogTail(repoRoot, 80);
      reject(new Error(`flotilla run did not exit in ${timeoutMs} ms\n${run.output()}\n--- log ---\n${log}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One item whose implementor reports `completed` without changing anything (an empty patch). */
function emptyPatchScenario(): Scenario {
  return oneItemScenario('empty-patch', [{ structuredOutput: GREET_COMPLETED }]);
}

const GREET_TEST = [
  "import assert from 'node:assert/strict';",
  "import { test } from 'node:test';",
  "import { greet } from '../src/greet.js';",
  "test('greets by name', () => assert.equal(greet('Ada'), 'Hello, Ada!'));",
  '',
].join('\n');
const writeTool = (path: string, content: string) => ({
  type: 'tool_use' as const,
  name: 'Write',
  input: { file_path: `{{cwd}}/${path}`, content },
});

/**
 * One item whose implementor writes a test and a wrong greet (the repository's real `npm test` fails), then
 * — from the session given by `fixedFrom` on (0-based; never when null) — the right greet. Each wrong greet
 * differs (the session id is in it), so a rework is never an empty patch.
 */
function redChecksScenario(fixedFrom: number | null): { scenario: Scenario; prompts: string[] } {
  const sessionIndex = createSessionCounter();
  /** The first user message (the prompt) of each implementor session, in order. */
  const prompts: string[] = [];
  const scenario = oneItemScenario('red-checks', [
    {
      respond: (request) => {
        const index = sessionIndex(request.sessionId);
        prompts[index] ??= request.firstUser;
        if (fixedFrom !== null && index >= fixedFrom) {
          return {
            content: [writeTool('src/greet.js', "export const greet = (n) => 'Hello, ' + n + '!';\n")],
          };
        }
        const wrong = `// attempt {{sessionId}}\nexport const greet = (n) => 'Hi ' + n;\n`;
        return {
          content: [writeTool('src/greet.js', wrong), writeTool('test/greet.test.js', GREET_TEST)],
        };
      },
    },
    { structuredOutput: GREET_COMPLETED },
  ]);
  return { scenario, prompts };
}

/** Sets fields of the repository's flotilla.config.json. */
function editConfig(repoRoot: string, edit: (config: Record<string, unknown>) => void): void {
  const configPath = join(repoRoot, 'flotilla.config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  edit(config);
  writeFileSync(configPath, JSON.stringify(config, null, 2));
}

function git(repoRoot: string, args: string[]): string {
  return execFileSync('git', args, { cwd: repoRoot }).toString();
}

/** Replaces the repository's `checks.command`; returns the one it had. */
function setChecksCommand(repoRoot: string, command: string): string {
  const configPath = join(repoRoot, 'flotilla.config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as { checks: { command: string } };
  const previous = config.checks.command;
  config.checks.command = command;
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return previous;
}

/** What a killed run may leave in the scratch dir (`.flotilla/tmp/`): checks worktrees, apply dirs. */
function scratchEntries(repoRoot: string): string[] {
  const dir = join(repoRoot, '.flotilla/tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function waitForProcessToEnd(pid: number, what: string): Promise<void> {
  await waitForCondition(
    () => !isProcessRunning(pid),
    30_000,
    what,
    () => `pid ${pid}`,
  );
}

const DEMO_DIR = join(import.meta.dirname, '../../src/app/demo');

/**
 * The demo's scenario on each runtime, wired as a user would in flotilla.config.json: Claude (the real SDK on
 * the scripted Messages endpoint), Codex (`scripted` roles played by the real codex binary on the Responses
 * endpoint: `scriptedRuntime: codex`) and the CLI runtime (the fake agent CLI as the `claude` preset's
 * program, playing the same scenario converted to its script). Returns the environment `flotilla run` needs.
 */
const RUNTIME_SETUPS: Record<
  'claude' | 'codex' | 'cli',
  (repoRoot: string) => Promise<Record<string, string>>
> = {
  claude: async () => {
    const server = await fixtures.serve();
    return { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' };
  },
  codex: async (repoRoot) => {
    copyFileSync(join(DEMO_DIR, 'demo-scenario-codex.json'), join(repoRoot, '.flotilla/codex-scenario.json'));
    editConfig(repoRoot, (config) => {
      config.runtimes = { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' };
      config.scriptedScenario = '.flotilla/codex-scenario.json';
      config.scriptedRuntime = 'codex';
    });
    return {};
  },
  cli: async (repoRoot) => {
    const scenario = JSON.parse(readFileSync(join(DEMO_DIR, 'demo-scenario.json'), 'utf8'));
    // Outside `.flotilla/` (hidden from agents by the OS sandbox), made readable to them by the config, as a
    // user would; the script's path passes the environment allow-list by name.
    const scriptDir = mkdtempSync(join(tmpdir(), 'flotilla-fake-agent-'));
    scriptDirs.push(scriptDir);
    const scriptPath = join(scriptDir, 'fake-agent-script.json');
    writeFileSync(scriptPath, JSON.stringify(buildFakeAgentScript(scenario)));
    const agent = { runtime: 'cli', preset: 'claude', program: FAKE_AGENT_PROGRAM };
    editConfig(repoRoot, (config) => {
      config.runtimes = { planner: agent, implementor: agent, reviewer: agent };
      config.sandbox = { passEnv: ['FAKE_AGENT_SCRIPT'], filesystem: { allowRead: [scriptDir] } };
    });
    // The `claude` preset counts as available only with a model key (its runs get a fresh config dir).
    return { FAKE_AGENT_SCRIPT: scriptPath, ANTHROPIC_API_KEY: 'test-key' };
  },
};

describe('flotilla run', () => {
  it.each(['claude', 'codex', 'cli'] as const)(
    '--until-idle on %s plans, implements, reviews and approves the demo backlog, then exits 0',
    async (runtime) => {
      const repo = await fixtures.demoRepository();
      mkdirSync(join(repo.root, '.flotilla'), { recursive: true });
      const env = await RUNTIME_SETUPS[runtime](repo.root);
      const run = startRun(repo.root, env, repo.gitEnv, ['--until-idle']);
      const code = await exitedWithin(run, repo.root, 200_000);
      expect(code, run.output()).toBe(0);
      expect(run.output()).toContain('work item #1 review → approved');
      expect(run.output()).toContain('work item #2 review → approved');
      expect(run.output()).toMatch(
        /^idle — 2 items approved, waiting for you to merge them: flotilla merge 1, flotilla merge 2 — this run: 7 agent runs, \$\d+\.\d{4}( \(scripted\))?$/m,
      );
      // Logs went to the file, not the terminal.
      expect(existsSync(join(repo.root, '.flotilla/logs/flotilla.log'))).toBe(true);
      expect(run.output()).not.toContain('"level"');
      expect(git(repo.root, ['branch', '--list', 'flotilla/*']).trim().split('\n')).toHaveLength(2);
      // Nothing left behind: no empty .worktrees/agent/flotilla/ (nor .worktrees, which this run created), no
      // checks worktree or apply dir.
      expect(existsSync(join(repo.root, '.worktrees')), readdirSync(repo.root).join(' ')).toBe(false);
      expect(scratchEntries(repo.root)).toEqual([]);
      expect(git(repo.root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
      // Every run went through the runtime under test: the same seven runs, recorded under its name.
      const db = openDatabase(join(repo.root, '.flotilla/flotilla.db'));
      try {
        const runs = createEngineStatePersistence(db).listRuns({ limit: 20 }).reverse();
        const recordedAs = { claude: 'claude', codex: 'scripted', cli: 'cli:claude' }[runtime];
        expect(runs.map((recorded) => [recorded.role, recorded.status, recorded.runtime])).toEqual(
          ['planner', 'implementor', 'reviewer', 'implementor', 'reviewer', 'implementor', 'reviewer'].map(
            (role) => [role, 'completed', recordedAs],
          ),
        );
      } finally {
        db.close();
      }
    },
    240_000,
  );

  it('a completed implementor with an empty patch ends as no-changes: needs-refinement with a comment, no retry', async () => {
    const repo = await fixtures.demoRepository();
    editConfig(repo.root, (config) => {
      config.scheduler = { retryBaseDelay: 1, retryMaxDelay: 1 };
    });
    const server = await fixtures.serve(emptyPatchScenario());
    const run = startRun(repo.root, server, repo.gitEnv, ['--until-idle']);
    const code = await exitedWithin(run, repo.root, 100_000);
    expect(code, run.output()).toBe(1);
    expect(run.output()).toContain('work item #1 in-progress → needs-refinement');
    expect(run.output()).not.toMatch(/retry of implementor/);
    // What follows is a refinement (`modes.refine.auto`), once: the demo has no refine agent file, so it
    // fails and the item waits for a human.
    expect(run.output().match(/refine for #1 starts at/g)).toHaveLength(1);
    expect(run.output()).toMatch(/idle — waiting on a human: #1 .* needs-refinement/);
    // One implementor session only: the empty patch was not retried.
    const sessions = new Set(
      server.requestsFor('implementor').map((request) => request.headers['x-claude-code-session-id']),
    );
    expect(sessions.size).toBe(1);
    const shown = execFileSync(process.execPath, [FLOTILLA_BIN, 'work', 'show', '1'], {
      cwd: repo.root,
    }).toString();
    expect(shown).toContain('changed nothing (an empty patch)');
    expect(shown).toMatch(/no_changes \[implementor · claude\]/);
  }, 120_000);

  it('red checks go back to the implementor with the failing test output; the rework passes, is approved, exit 0', async () => {
    const repo = await fixtures.demoRepository();
    const { scenario, prompts } = redChecksScenario(1);
    const server = await fixtures.serve(scenario);
    const run = startRun(repo.root, server, repo.gitEnv, ['--until-idle']);
    const code = await run.exited;
    expect(code, run.output()).toBe(0);
    expect(run.output()).toMatch(/work item #1 review → pending/);
    expect(run.output()).toContain('work item #1 review → approved');
    // The rework session's prompt held the real `npm test` output of the red revision.
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).not.toContain('CI Status');
    expect(prompts[1]).toContain('### CI Status: FAILURE');
    expect(prompts[1]).toContain('Checks output');
    expect(prompts[1]).toContain("actual: 'Hi Ada'");
    expect(prompts[1]).toContain("expected: 'Hello, Ada!'");
  }, 180_000);

  it('red checks past maxCheckRounds park the item: --until-idle names it and exits 1', async () => {
    const repo = await fixtures.demoRepository();
    editConfig(repo.root, (config) => {
      config.maxCheckRounds = 1;
    });
    const server = await fixtures.serve(redChecksScenario(null).scenario);
    const run = startRun(repo.root, server, repo.gitEnv, ['--until-idle']);
    const code = await run.exited;
    expect(code, run.output()).toBe(1);
    expect(run.output()).toContain('work item #1 review → needs-refinement');
    expect(run.output()).toContain(
      'idle — waiting on a human: #1 "Add greet(name)" needs-refinement (checks failed 2 times)',
    );
  }, 180_000);

  it('--until-idle exits 1 naming the planner when it failed all its attempts', async () => {
    const repo = await fixtures.demoRepository();
    editConfig(repo.root, (config) => {
      config.scheduler = { maxAttempts: 2, retryBaseDelay: 1, retryMaxDelay: 1 };
    });
    const server = await fixtures.serve({
      name: 'planner-refused',
      routes: [
        {
          name: 'refuse',
          steps: [{ error: { status: 400, type: 'invalid_request_error', message: 'planner refused' } }],
        },
      ],
    });
    const run = startRun(repo.root, server, repo.gitEnv, ['--until-idle', '--json']);
    const code = await exitedWithin(run, repo.root, 100_000);
    expect(code, run.output()).toBe(1);
    const last = JSON.parse(run.output().trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'idle', idle: true, waitingOnHuman: [] });
    expect(last.plannerOutOfAttempts).toMatchObject({ attempts: 2 });
  }, 120_000);

  it('after kill -9 during an implementor run, a restart re-dispatches the item, records the interrupted run as failed, and leaks nothing', async () => {
    const repo = await fixtures.demoRepository();
    const slowServer = await fixtures.serve(slowImplementorScenario());
    const first = startRun(repo.root, slowServer, repo.gitEnv);
    await waitForCondition(
      () => first.output().includes('implementor started'),
      60_000,
      'the implementor to start',
      first.output,
    );
    await waitForCondition(
      () => existsSync(join(repo.root, '.worktrees/agent/flotilla/1')),
      10_000,
      'its worktree',
      first.output,
    );
    // The session is under way: its first messages are in its transcript, written as they arrived.
    const sessionsDir = join(repo.root, '.flotilla/logs/sessions');
    const implementorTranscript = () =>
      readdirSync(sessionsDir)
        .filter((name) => name.includes('-implementor-'))
        .map((name) => readFileSync(join(sessionsDir, name), 'utf8'))
        .join('');
    await waitForCondition(
      () => implementorTranscript().includes(' SYSTEM init\n'),
      30_000,
      "the implementor's first messages in its transcript",
      first.output,
    );
    first.child.kill('SIGKILL');
    await first.exited;

    const server = await fixtures.serve(finishScenario({ planner: false }));
    const second = startRun(repo.root, server, repo.gitEnv, ['--until-idle']);
    const code = await second.exited;
    expect(code, second.output()).toBe(0);
    // The killed run's agent (the SDK's claude CLI) ran in the OS sandbox, which dies with flotilla
    // (bubblewrap's --die-with-parent): no orphan is left for the restart to end.
    expect(second.output()).toMatch(
      /recovered: 1 interrupted run\(s\) recorded as failed, 1 stale worktree\(s\) removed, 0 orphaned agent or checks process\(es\) ended/,
    );
    // The killed run's agent process does not outlive the restart.
    expect(agentProcessesOf(repo.root)).toEqual([]);
    expect(second.output()).toContain('work item #1 review → approved');

    const db = openDatabase(join(repo.root, '.flotilla/flotilla.db'));
    try {
      const runs = createEngineStatePersistence(db).listRuns({ limit: 20 }).reverse();
      expect(runs.map((run) => [run.role, run.status])).toEqual([
        ['planner', 'completed'],
        ['implementor', 'failed'],
        ['implementor', 'completed'],
        ['reviewer', 'completed'],
      ]);
      expect(runs[1]?.error).toMatch(/interrupted/);
      // Its transcript, written as the session streamed, kept what arrived before the kill.
      const transcript = readFileSync(runs[1]?.logFilePath ?? '', 'utf8');
      expect(transcript).toMatch(/^=== Agent Session ===\nType: implementor\n/);
      expect(transcript).toMatch(/ SYSTEM init\n/);
      expect(transcript).not.toContain('=== Session End ===');
    } finally {
      db.close();
    }
    // No duplicate revision, no leaked worktree or agent branch; the planner was not run again.
    expect(
      git(repo.root, ['branch', '--list'])
        .trim()
        .split('\n')
        .map((b) => b.replace(/^[*+ ] /, '')),
    ).toEqual(['flotilla/1', 'main']);
    expect(git(repo.root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(repo.root, '.worktrees/agent')), 'empty parents of agent worktrees').toBe(false);
    expect(scratchEntries(repo.root)).toEqual([]);
    // The killed run's CLI state (its session files) went with it; finished runs remove their own.
    expect(readdirSync(join(repo.root, '.flotilla/claude/runs'))).toEqual([]);
    expect(
      server.requests.filter((request) => request.route === undefined && request.kind === 'step'),
    ).toEqual([]);
  }, 180_000);

  it('after kill -9 during checks, a restart ends the orphaned checks, removes their worktree and checks the head again', async () => {
    const repo = await fixtures.demoRepository();
    const pidFile = join(repo.root, '.flotilla', 'checks.pid');
    const realCommand = setChecksCommand(repo.root, `echo $$ > '${pidFile}'; exec sleep 300`);
    const first = startRun(repo.root, await fixtures.serve(), repo.gitEnv);
    await waitForCondition(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      90_000,
      'the checks command to start',
      first.output,
    );
    const checksPid = Number(readFileSync(pidFile, 'utf8').trim());
    first.child.kill('SIGKILL');
    await first.exited;
    // What the kill left: the checks still running in a registered worktree under .flotilla/tmp/.
    const [leftover] = scratchEntries(repo.root);
    expect(leftover).toMatch(/^checks-/);
    expect(git(repo.root, ['worktree', 'list', '--porcelain'])).toContain(`/.flotilla/tmp/${leftover}\n`);
    expect(isProcessRunning(checksPid)).toBe(true);
    const headChecked = git(repo.root, ['rev-parse', 'flotilla/1']).trim();

    setChecksCommand(repo.root, realCommand);
    const second = startRun(repo.root, await fixtures.serve(), repo.gitEnv, ['--until-idle']);
    const code = await second.exited;
    expect(code, second.output()).toBe(0);
    expect(second.output()).toMatch(
      /recovered: 0 interrupted run\(s\) recorded as failed, 1 stale worktree\(s\) removed, [1-9]\d* orphaned/,
    );
    expect(isProcessRunning(checksPid)).toBe(false);
    expect(git(repo.root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
    expect(scratchEntries(repo.root)).toEqual([]);
    // Nothing lost: the interrupted head was checked again, and the backlog completed.
    const checksLogs = readdirSync(join(repo.root, '.flotilla/logs/checks'));
    const logsOfHead = checksLogs.filter((name) => name.startsWith(`checks-${headChecked.slice(0, 12)}-`));
    expect(logsOfHead.length, checksLogs.join(' ')).toBe(2);
    expect(second.output()).toContain('work item #1 review → approved');
    expect(second.output()).toContain('work item #2 review → approved');
  }, 240_000);

  it('after kill -9 while a revision is being written, a restart removes the apply dir and the item completes', async () => {
    const repo = await fixtures.demoRepository();
    // git runs this hook inside createBranchFromPatch's ref update (the apply dir is in use then): the first
    // time a revision branch is written, it records git's pid and holds the update until released.
    const gitPidFile = join(repo.root, '.flotilla', 'update-ref.pid');
    const release = join(repo.root, '.flotilla', 'release');
    const hook = join(repo.root, '.git/hooks/reference-transaction');
    writeFileSync(
      hook,
      [
        '#!/bin/sh',
        `[ "$1" = prepared ] && [ ! -e '${release}' ] || exit 0`,
        'while read -r old new ref; do',
        '  case "$ref" in refs/heads/flotilla/*)',
        `    echo $PPID > '${gitPidFile}'`,
        `    while [ ! -e '${release}' ]; do sleep 0.05; done;;`,
        '  esac',
        'done',
        '',
      ].join('\n'),
    );
    chmodSync(hook, 0o755);
    const first = startRun(repo.root, await fixtures.serve(), repo.gitEnv);
    await waitForCondition(
      () => existsSync(gitPidFile) && readFileSync(gitPidFile, 'utf8').trim() !== '',
      90_000,
      'the revision branch to be written',
      first.output,
    );
    const [applyDir] = scratchEntries(repo.root);
    expect(applyDir).toMatch(/^apply-/);
    expect(readdirSync(join(repo.root, '.flotilla/tmp', applyDir ?? '')).sort()).toEqual([
      'index',
      'revision.patch',
    ]);
    first.child.kill('SIGKILL');
    await first.exited;
    // The orphaned git finishes its update (as it would after a plain kill -9 of flotilla).
    writeFileSync(release, '');
    await waitForProcessToEnd(Number(readFileSync(gitPidFile, 'utf8').trim()), 'git update-ref to finish');
    expect(scratchEntries(repo.root)).toEqual([applyDir]);

    const second = startRun(repo.root, await fixtures.serve(), repo.gitEnv, ['--until-idle']);
    const code = await second.exited;
    expect(code, second.output()).toBe(0);
    expect(scratchEntries(repo.root)).toEqual([]);
    const log = readFileSync(join(repo.root, '.flotilla/logs/flotilla.log'), 'utf8');
    expect(log).toContain('Reaping a directory a killed run left behind');
    // Nothing lost: the item went back to the implementor, its revision was written, and both completed.
    expect(second.output()).toContain('work item #1 review → approved');
    expect(second.output()).toContain('work item #2 review → approved');
    expect(git(repo.root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
    expect(
      git(repo.root, ['branch', '--list'])
        .trim()
        .split('\n')
        .map((b) => b.replace(/^[*+ ] /, '')),
    ).toEqual(['flotilla/1', 'flotilla/2', 'main']);
  }, 240_000);

  it('Ctrl-C during a long checks run kills the checks and removes their worktree; the head stays pending', async () => {
    const repo = await fixtures.demoRepository();
    const pidFile = join(repo.root, '.flotilla', 'checks.pid');
    const configPath = join(repo.root, 'flotilla.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { checks: { command: string } };
    config.checks.command = `echo $$ > '${pidFile}'; sleep 300`;
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    const server = await fixtures.serve();
    const run = startRun(repo.root, server, repo.gitEnv);
    await waitForCondition(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      90_000,
      'the checks command to start',
      run.output,
    );
    const checksPid = Number(readFileSync(pidFile, 'utf8').trim());
    run.child.kill('SIGINT');
    expect(await run.exited, run.output()).toBe(0);

    expect(isProcessRunning(checksPid)).toBe(false);
    expect(git(repo.root, ['worktree', 'list', '--porcelain'])).not.toContain('/.flotilla/tmp/checks-');
    expect(scratchEntries(repo.root)).toEqual([]);
    expect(git(repo.root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
    const log = readFileSync(join(repo.root, '.flotilla/logs/flotilla.log'), 'utf8');
    expect(log).toContain('checks cancelled (shutting down)');
    const db = openDatabase(join(repo.root, '.flotilla/flotilla.db'));
    try {
      const revisions = createSqliteTracker(db, { now: Date.now }).revisions.listRevisions();
      expect(revisions.map((revision) => revision.pipeline?.status)).toContain('pending');
    } finally {
      db.close();
    }
  }, 150_000);

  it('a second flotilla run in the same repository refuses to start and leaves the first one working', async () => {
    const repo = await fixtures.demoRepository();
    const server = await fixtures.serve(slowImplementorScenario());
    const first = startRun(repo.root, server, repo.gitEnv);
    await waitForCondition(
      () => first.output().includes('implementor started'),
      60_000,
      'the implementor to start',
      first.output,
    );
    const agents = agentProcessesOf(repo.root);
    expect(agents.length).toBeGreaterThan(0);

    const second = startRun(repo.root, server, repo.gitEnv);
    expect(await second.exited, second.output()).toBe(1);
    expect(second.output()).toMatch(
      new RegExp(`flotilla run: flotilla is already running in this repository \\(pid ${first.child.pid} `),
    );
    // Nothing of the first was "recovered": its agent, worktree and run are untouched. The oldest agent
    // process is the session itself; the CLI's short-lived children may come and go meanwhile.
    expect(agentProcessesOf(repo.root)).toContain(Math.min(...agents));
    expect(existsSync(join(repo.root, '.worktrees/agent/flotilla/1'))).toBe(true);
    expect(first.output()).not.toContain('implementor failed');

    first.child.kill('SIGINT');
    expect(await first.exited, first.output()).toBe(0);
    expect(existsSync(join(repo.root, '.flotilla/run.lock'))).toBe(false);
  }, 120_000);

  it.each(['SIGINT', 'SIGHUP'] as const)(
    '%s stops gracefully: the running agent is cancelled, its worktree removed, the run recorded as cancelled',
    async (signal) => {
      const repo = await fixtures.demoRepository();
      const server = await fixtures.serve(slowImplementorScenario());
      const run = startRun(repo.root, server, repo.gitEnv);
      await waitForCondition(
        () => run.output().includes('implementor started'),
        60_000,
        'the implementor to start',
        run.output,
      );
      run.child.kill(signal);
      expect(await run.exited, run.output()).toBe(0);
      expect(run.output()).toContain('stopping — cancelling runs and removing worktrees');
      expect(run.output()).toMatch(/implementor failed \(cancelled\)/);
      expect(existsSync(join(repo.root, '.worktrees/agent/flotilla/1'))).toBe(false);
      expect(agentProcessesOf(repo.root)).toEqual([]);
      const db = openDatabase(join(repo.root, '.flotilla/flotilla.db'));
      try {
        const runs = createEngineStatePersistence(db).listRuns({ limit: 5 });
        expect(runs.find((r) => r.role === 'implementor')?.status).toBe('cancelled');
      } finally {
        db.close();
      }
    },
    90_000,
  );

  it("runs agents whose runtime is 'scripted' against the configured scenario, with no model endpoint in the environment", async () => {
    const repo = await fixtures.demoRepository();
    const { copyFile, readFile, writeFile } = await import('node:fs/promises');
    await copyFile(
      join(import.meta.dirname, '../../src/app/demo/demo-scenario.json'),
      join(repo.root, 'scenario.json'),
    );
    const config = JSON.parse(await readFile(join(repo.root, 'flotilla.config.json'), 'utf8'));
    const scripted = { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' };
    await writeFile(
      join(repo.root, 'flotilla.config.json'),
      JSON.stringify({ ...config, runtimes: scripted, scriptedScenario: 'scenario.json' }),
    );
    const run = startFlotillaProcess(fixtures, {
      cwd: repo.root,
      args: ['run', '--until-idle', '--json'],
      // No model endpoint: undefined leaves the variable out of the child's environment.
      env: { ANTHROPIC_BASE_URL: undefined, ANTHROPIC_API_KEY: undefined, ...repo.gitEnv },
    });
    const code = await run.exited;
    const output = run.output();
    expect(code, output).toBe(0);
    const events = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; newStatus?: string; workItemID?: string });
    expect(
      events
        .filter((e) => e.type === 'workItemChanged' && e.newStatus === 'approved')
        .map((e) => e.workItemID),
    ).toEqual(['1', '2']);
    expect(events.at(-1)).toEqual({
      type: 'idle',
      idle: true,
      errors: 0,
      waitingOnHuman: [],
      plannerOutOfAttempts: null,
      budgetPause: null,
      awaitingMerge: [
        { workItemID: '1', title: 'Add greet(name)' },
        { workItemID: '2', title: 'Add farewell(name)' },
      ],
    });
  }, 120_000);

  it('exits 2 with the field named when the configuration is malformed', async () => {
    const repo = await fixtures.demoRepository();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      join(repo.root, 'flotilla.config.json'),
      '{ "scheduler": { "maxConcurrentAgents": "three" } }\n',
    );
    const server = await fixtures.serve({
      name: 'unused',
      routes: [{ name: 'any', steps: [{ text: 'x' }] }],
    });
    const run = startRun(repo.root, server, repo.gitEnv, ['--until-idle']);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('scheduler.maxConcurrentAgents');
  }, 30_000);
});
