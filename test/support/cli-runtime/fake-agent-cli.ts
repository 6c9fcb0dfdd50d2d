/**
 * A scripted stand-in for an agent CLI, for real-process tests of the CLI runtime. Run it as the preset's
 * program (`node --import tsx fake-agent-cli.ts <the preset's arguments>`). It understands the presets'
 * flags (prompt on stdin, `--message-file`, a trailing argument; `--session-id`, `--resume`, `resume <id>`,
 * `--session`), appends what it was given to `<script>.calls.jsonl` (or FAKE_AGENT_CALLS), then plays the next round of the
 * script named by FAKE_AGENT_SCRIPT (one round per invocation; the last one repeats).
 *
 * A `request` step is one model request, reported as the tool the flags ask for reports it: with
 * `--output-format stream-json` an assistant message (id, model, tokens) at once; at the end of the round
 * claude's `result` object (`--output-format json`/`stream-json`: cost, tokens, turns of the invocation) or
 * `codex exec --json`'s `turn.completed` (tokens of the thread); with any other flags nothing (aider & co.).
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type FakeAgentStep =
  | { write: { path: string; content: string } }
  | { symlink: { path: string; target: string } }
  /** `git add -A && git commit -m <message>` in the working directory. */
  | { commit: string }
  | { print: string }
  | { stderr: string }
  /** Writes `.flotilla/signal.json`: an object as JSON, a string as it is (for invalid JSON). */
  | { signal: unknown }
  /** Writes into the git directory all worktrees share (`hooks/<name>`), as an agent without hooks could. */
  | { gitHook: { name: string; content: string } }
  /** Starts `sleep 600` in the same process group and writes its pid to this file. */
  | { spawnSleeper: string }
  /** A bash command line in the working directory (as an agent's shell tool runs it), waited for. */
  | { run: string }
  | { sleepMs: number }
  /** Waits (up to 30 s) until this file exists: a test opens it when it has seen what it waits for. */
  | { waitForFile: string }
  /** One model request; `costUSD` is what the tool itself would charge for it (its result's total). */
  | { request: { model: string; inputTokens: number; outputTokens?: number; costUSD: number } };

export interface FakeAgentRound {
  /**
   * Plays only for a prompt containing this text (a list: all of them; the first such round wins); else
   * rounds go in order.
   */
  promptIncludes?: string | string[];
  steps: FakeAgentStep[];
  exitCode?: number;
}

export interface FakeAgentScript {
  rounds: FakeAgentRound[];
}

/** What one invocation was given, as the tests read it back. */
export interface FakeAgentCall {
  argv: string[];
  cwd: string;
  prompt: string;
  /** How the prompt arrived. */
  promptVia: 'stdin' | 'file' | 'argument';
  /** The session it was asked to resume, if any. */
  resumed: string | null;
  /** The session id it was assigned (`--session-id`) or made up and announced. */
  sessionId: string;
  /**
   * The prompts the session was given before this call (a resume continues the conversation kept under the
   * agent's CLAUDE_CONFIG_DIR, as the real tools keep theirs); empty for a new session.
   */
  history: string[];
  env: Record<string, string>;
}

function main(): void {
  const scriptPath = process.env.FAKE_AGENT_SCRIPT;
  if (!scriptPath) {
    process.stderr.write('fake-agent-cli: FAKE_AGENT_SCRIPT is not set\n');
    process.exit(2);
  }
  const script = JSON.parse(readFileSync(scriptPath, 'utf8')) as FakeAgentScript;
  // Next to the script, unless FAKE_AGENT_CALLS says where (inside the OS sandbox, where the script's
  // directory is read-only: e.g. the sandbox's private /tmp).
  const callsPath = process.env.FAKE_AGENT_CALLS ?? `${scriptPath}.calls.jsonl`;
  const callIndex = existsSync(callsPath)
    ? readFileSync(callsPath, 'utf8').split('\n').filter(Boolean).length
    : 0;
  const args = process.argv.slice(2);
  const call = readCall(args);
  try {
    appendFileSync(callsPath, `${JSON.stringify(call)}\n`);
  } catch (error) {
    // A script the OS sandbox only lets it read (passed through `sandbox.filesystem.allowRead`): rounds are
    // then chosen by `promptIncludes`, and the calls go unrecorded.
    if ((error as NodeJS.ErrnoException).code !== 'EROFS') throw error;
  }
  if (call.resumed !== null && !existsSync(sessionFile(call.resumed))) {
    process.stderr.write(`fake-agent-cli: no conversation found with session id ${call.resumed}\n`);
    process.exit(1);
  }
  saveSession(call.sessionId, [...call.history, call.prompt]);
  // The id a JSON-event CLI announces first (codex's thread, opencode's session).
  console.log(
    JSON.stringify({ type: 'thread.started', thread_id: call.sessionId, sessionID: call.sessionId }),
  );

  const round = script.rounds.some((r) => r.promptIncludes !== undefined)
    ? script.rounds.find(
        (r) =>
          r.promptIncludes !== undefined &&
          [r.promptIncludes].flat().every((text) => call.prompt.includes(text)),
      )
    : script.rounds[Math.min(callIndex, script.rounds.length - 1)];
  if (round === undefined) process.exit(0);
  const usage = usageReporter(args, call.sessionId);
  void play(round.steps, usage).then(() => {
    usage.end();
    process.exit(round.exitCode ?? 0);
  });
}

interface UsageReporter {
  request(request: Extract<FakeAgentStep, { request: unknown }>['request']): void;
  end(): void;
}

/** Reports model requests in the shapes of the tool the arguments ask for (see the header). */
function usageReporter(args: string[], sessionId: string): UsageReporter {
  const format = args[args.indexOf('--output-format') + 1];
  const claude = args.includes('--output-format') ? format : null;
  const codex = args[0] === 'exec' && args.includes('--json');
  let count = 0;
  let input = 0;
  let output = 0;
  let cost = 0;
  return {
    request(request) {
      count += 1;
      input += request.inputTokens;
      output += request.outputTokens ?? 0;
      cost += request.costUSD;
      if (claude !== 'stream-json') return;
      console.log(
        JSON.stringify({
          type: 'assistant',
          message: {
            id: `msg_fake_${process.pid}_${count}`,
            type: 'message',
            role: 'assistant',
            model: request.model,
            content: [{ type: 'text', text: `Request ${count}.` }],
            stop_reason: null,
            usage: {
              input_tokens: request.inputTokens,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              output_tokens: request.outputTokens ?? 0,
            },
          },
          parent_tool_use_id: null,
          session_id: sessionId,
        }),
      );
    },
    end() {
      if (count === 0) return;
      if (claude === 'json' || claude === 'stream-json') {
        console.log(
          JSON.stringify({
            type: 'result',
            subtype: 'success',
            is_error: false,
            result: 'Done.',
            session_id: sessionId,
            total_cost_usd: cost,
            num_turns: count,
            usage: {
              input_tokens: input,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              output_tokens: output,
            },
          }),
        );
      } else if (codex) {
        console.log(
          JSON.stringify({
            type: 'turn.completed',
            usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output },
          }),
        );
      }
    },
  };
}

function readCall(args: string[]): FakeAgentCall {
  const flagValue = (flag: string) => {
    const index = args.indexOf(flag);
    return index === -1 ? null : (args[index + 1] ?? null);
  };
  const resumeIndex = args.indexOf('resume');
  const resumed =
    flagValue('--resume') ??
    flagValue('--session') ??
    (resumeIndex === -1 ? null : (args[resumeIndex + 1] ?? null));
  let prompt: string;
  let promptVia: FakeAgentCall['promptVia'];
  const messageFile = flagValue('--message-file');
  const last = args.at(-1);
  if (messageFile !== null) {
    prompt = readFileSync(messageFile, 'utf8');
    promptVia = 'file';
  } else if (last !== undefined && !last.startsWith('-') && args.includes('run')) {
    prompt = last;
    promptVia = 'argument';
  } else {
    prompt = readFileSync(0, 'utf8');
    promptVia = 'stdin';
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  const history =
    resumed !== null && existsSync(sessionFile(resumed))
      ? (JSON.parse(readFileSync(sessionFile(resumed), 'utf8')) as string[])
      : [];
  return {
    argv: args,
    cwd: process.cwd(),
    prompt,
    promptVia,
    resumed,
    sessionId: flagValue('--session-id') ?? resumed ?? `fake-${process.pid}`,
    history,
    env,
  };
}

/** Where a session's conversation is kept: the agent's own config dir, as Claude Code keeps its own. */
function sessionFile(sessionId: string): string {
  const configDir = process.env.CLAUDE_CONFIG_DIR ?? join(process.cwd(), '.fake-agent');
  return join(configDir, 'fake-sessions', `${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

function saveSession(sessionId: string, prompts: string[]): void {
  mkdirSync(dirname(sessionFile(sessionId)), { recursive: true });
  writeFileSync(sessionFile(sessionId), JSON.stringify(prompts));
}

async function play(steps: FakeAgentStep[], usage: UsageReporter): Promise<void> {
  for (const step of steps) {
    if ('write' in step) {
      mkdirSync(dirname(step.write.path), { recursive: true });
      writeFileSync(step.write.path, step.write.content);
    } else if ('symlink' in step) {
      spawnSync('ln', ['-s', step.symlink.target, step.symlink.path]);
    } else if ('commit' in step) {
      git(['add', '-A']);
      git([
        '-c',
        'user.name=Fake Agent',
        '-c',
        'user.email=fake@agent.invalid',
        'commit',
        '-qm',
        step.commit,
      ]);
    } else if ('print' in step) {
      console.log(step.print);
    } else if ('stderr' in step) {
      console.error(step.stderr);
    } else if ('signal' in step) {
      mkdirSync('.flotilla', { recursive: true });
      const text = typeof step.signal === 'string' ? step.signal : JSON.stringify(step.signal);
      writeFileSync(join('.flotilla', 'signal.json'), text);
    } else if ('gitHook' in step) {
      const commonDir = git(['rev-parse', '--path-format=absolute', '--git-common-dir']).trim();
      mkdirSync(join(commonDir, 'hooks'), { recursive: true });
      writeFileSync(join(commonDir, 'hooks', step.gitHook.name), step.gitHook.content, { mode: 0o755 });
    } else if ('spawnSleeper' in step) {
      const child = spawn('sleep', ['600'], { stdio: 'ignore' });
      writeFileSync(step.spawnSleeper, String(child.pid));
    } else if ('run' in step) {
      spawnSync('bash', ['-c', step.run], { stdio: ['ignore', 'inherit', 'inherit'] });
    } else if ('sleepMs' in step) {
      await new Promise((resolve) => setTimeout(resolve, step.sleepMs));
    } else if ('waitForFile' in step) {
      for (let waited = 0; waited < 30_000 && !existsSync(step.waitForFile); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } else if ('request' in step) {
      usage.request(step.request);
    }
  }
}

function git(args: string[]): string {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

main();
