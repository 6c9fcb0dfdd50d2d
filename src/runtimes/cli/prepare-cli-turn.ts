import { randomUUID } from 'node:crypto';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAnswersPrompt, buildRestartedPrompt } from '../../domain/index.ts';
import {
  AgentRunFailure,
  validateAgentOutput,
  validateModeOutputOrQuestions,
} from '../../engine/runtime-contract/index.ts';
import type { SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import { withAgentBinOnPath } from '../shared/agent-command-channel.ts';
import type { AgentTurn, RoundEnd, TurnRun, TurnSetup } from '../shared/agent-turn.ts';
import { buildAgentSandboxRequest } from '../shared/build-agent-sandbox-request.ts';
import type { ClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { findModelEndpoints } from '../shared/find-model-endpoints.ts';
import { finishAgentResult } from '../shared/finish-agent-result.ts';
import {
  createReadOnlyWorktreeCheck,
  readOnlyModeOf,
  settleAgentOutput,
} from '../shared/settle-agent-output.ts';
import { buildCliCommand } from './build-cli-command.ts';
import { buildCliEnv } from './build-cli-env.ts';
import { buildCliAgentPrompt, buildMissingSignalPrompt } from './build-signal-instructions.ts';
import type { CliPreset } from './cli-presets.ts';
import type { CliRuntimeConfig } from './cli-runtime-config.ts';
import { createCliUsageReader } from './create-cli-usage-reader.ts';
import { type AgentSignal, readAgentSignal, SIGNAL_FILE, type SignalReading } from './read-agent-signal.ts';
import { runCliProcess } from './run-cli-process.ts';
import { restoreGitControlFiles, snapshotGitControlFiles } from './snapshot-git-control-files.ts';

/** A re-prompt is one more round: the lifecycle controller (docs/runtime-spec.md) retries a missing signal once. */
const MAX_ROUNDS = 2;
/** How much of an agent's own error or questions a failure message quotes. */
const MAX_QUOTED_CHARS = 2_000;

/** What the runtime shares between its runs. */
export interface CliTurnContext {
  config: CliRuntimeConfig;
  preset: CliPreset;
  claudeConfigSeed: ClaudeConfigSeed;
  isRoot: boolean;
}

/** How a round's process ended: its exit code and the signal file it left. */
interface CliRoundEnd {
  exitCode: number | null;
  reading: SignalReading;
}

function quote(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}… (cut)` : text;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One run's turn on an agent CLI: each round is one process of the preset (round 0 the task, or the
 * answers on a resume; round 1 the re-prompt after a missing signal), judged by the signal file it leaves.
 */
export async function prepareCliTurn(
  context: CliTurnContext,
  setup: TurnSetup,
): Promise<AgentTurn<CliRoundEnd>> {
  const { config, preset } = context;
  const { logger } = config;
  const { params, sessionID, role, clock, cwd, runDir: runStateDir } = setup;
  const { resume } = params;
  // The shell gives every CLI run a worktree (see createCliRuntime's worktreeFor).
  const worktree = setup.worktree!;
  setup.onRelease(async (kept) => {
    if (!kept) await context.claudeConfigSeed.learn(join(runStateDir, 'config'));
  });
  const snapshot = await clock.time('git-control-snapshot', () => snapshotGitControlFiles(cwd));
  // A read-only mode (issue #29): the OS sandbox binds the worktree read-only but for the signal file's
  // directory; without the sandbox, refused (fail closed). The worktree is checked unchanged at the end.
  const mode = readOnlyModeOf(params);
  if (mode !== undefined && config.sandbox?.mode !== 'on')
    throw new Error(`the ${mode} run needs the OS sandbox to keep its worktree read-only (fail closed)`);
  const signalDir = join(cwd, '.flotilla');
  if (mode !== undefined) await mkdir(signalDir, { recursive: true });
  const readOnlyCheck = mode !== undefined ? createReadOnlyWorktreeCheck(cwd, mode) : undefined;
  await readOnlyCheck?.snapshot();
  await setup.makeRunDir();
  const extra = { ...config.extraEnv, ...buildPortEnv(worktree.ports) };
  // Flotilla's tools as `flotilla agent <verb>` (the per-run script the shell writes; issue #28 §2).
  const env = withAgentBinOnPath(
    buildCliEnv({
      baseEnv: config.baseEnv ?? process.env,
      runStateDir,
      isRoot: context.isRoot,
      credentialEnv: preset.credentialEnv,
      ...(config.passThroughEnv !== undefined && { passThrough: config.passThroughEnv }),
      ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
      ...(Object.keys(extra).length > 0 && { extra }),
    }),
    runStateDir,
  );
  // The claude preset's CLI keeps its state in CLAUDE_CONFIG_DIR (other tools ignore it: nothing to learn).
  // Only the run's own: one the config points elsewhere (a login) is not ours to write.
  const configDir = join(runStateDir, 'config');
  if (env.CLAUDE_CONFIG_DIR === configDir)
    await clock.time('config-seed', () => context.claudeConfigSeed.plant(configDir));
  const agentName = `the ${role} agent (${config.preset})`;

  const usageReader = createCliUsageReader(preset.usage, {
    ...(config.findModelPrice !== undefined && { findModelPrice: config.findModelPrice }),
  });
  let agentSessionId: string | null =
    resume !== undefined
      ? resume.session.agentSessionID
      : preset.sessionId.from === 'assigned'
        ? sessionID
        : null;
  /** Whether round 0 continues the asking session (the preset can resume and its id is known). */
  const resumesAsked = resume !== undefined && preset.resume !== null && agentSessionId !== null;
  if (resume !== undefined && !resumesAsked && preset.sessionId.from === 'assigned')
    agentSessionId = sessionID;
  const sessionIdPattern = preset.sessionId.from === 'output' ? new RegExp(preset.sessionId.pattern) : null;
  /** Whether a re-prompt continues the same session (the preset can resume and the id is known). */
  const canResume = () => preset.resume !== null && agentSessionId !== null;
  /** Why the last round did not count, for the re-prompt's announcement. */
  let problem = '';

  const onLine = (run: TurnRun, stream: 'stdout' | 'stderr', line: string) => {
    if (agentSessionId === null && sessionIdPattern !== null) {
      agentSessionId = sessionIdPattern.exec(line)?.[1] ?? null;
    }
    const live = stream === 'stdout' ? usageReader.line(line) : null;
    if (live !== null) run.reportUsage(live);
    run.output(`${line}\n`);
    if (stream === 'stderr') run.refusals.line(line);
    const text = stream === 'stderr' ? `[stderr] ${line}` : line;
    run.sessionLog?.record({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
    run.notifyActivity();
  };

  /** The process of one round inside the OS sandbox when it is on. */
  const wrapInSandbox = async (run: TurnRun, command: { file: string; args: string[] }) => {
    if (config.sandbox?.mode !== 'on') return null;
    try {
      return await config.sandbox.wrap(
        buildAgentSandboxRequest({
          repoRoot: config.repoRoot,
          worktree: cwd,
          readOnlyWorktree: mode !== undefined,
          ...(mode !== undefined && { extraWritable: [signalDir] }),
          runStateDir,
          env,
          network: findModelEndpoints(env),
          programs: [command.file],
          onNetworkRefused: (target) => {
            run.refusals.onNetworkRefused(target);
            run.notifyActivity();
          },
        }),
        command.file,
        command.args,
      );
    } catch (error) {
      throw new AgentRunFailure('error', `${agentName}: the OS sandbox could not start: ${messageOf(error)}`);
    }
  };

  /** One process: the prompt in, lines out; then the signal file says how it went. */
  const runRound = async (run: TurnRun, text: string, round: number): Promise<CliRoundEnd> => {
    const resumes = round > 0 ? canResume() : resumesAsked;
    // A new session under an id we assign needs a fresh one: the first round's id is taken.
    if (round > 0 && !resumes && preset.sessionId.from === 'assigned') agentSessionId = randomUUID();
    const command = buildCliCommand({
      preset,
      prompt: text,
      sessionId: agentSessionId,
      resume: resumes,
      promptFilePath: join(runStateDir, `prompt-${round + 1}.md`),
      ...(config.program !== undefined && { program: config.program }),
    });
    await rm(join(cwd, SIGNAL_FILE), { force: true });
    if (command.promptFile !== null) {
      await writeFile(command.promptFile.path, command.promptFile.content, { mode: 0o600 });
    }
    if (round > 0)
      run.announce(`re-prompting ${resumes ? 'the same session' : 'in a new session'}: ${problem}`);
    else if (resume !== undefined) {
      run.announce(
        `session ${resume.sessionNumber}: ${resumes ? 'resuming the same session' : 'a new session (this preset cannot resume)'} with a human's answers`,
      );
    }
    run.sessionLog?.record({ type: 'user', message: { role: 'user', content: text } });
    usageReader.beginRound(resumes);
    // This run took a worktree: the next run's is checked out (a turn later) while this agent works.
    if (round === 0 && resume === undefined) run.markStarted();
    const sandboxed: SandboxedCommand | null = await wrapInSandbox(run, command);
    const outcome = await runCliProcess({
      command: sandboxed === null ? command : { ...command, file: sandboxed.file, args: sandboxed.args },
      cwd,
      env: sandboxed?.env ?? env,
      signal: run.signal,
      timeoutMs: config.maxAgentDuration * 1000 + 60_000,
      onLine: (stream, line) => onLine(run, stream, line),
    }).finally(() => sandboxed?.dispose());
    if (run.abortReason) throw run.abortFailure(run.abortReason);
    if (outcome.kind === 'not-started') throw new AgentRunFailure('error', `${agentName}: ${outcome.reason}`);
    if (outcome.kind === 'cancelled') throw run.abortFailure('cancelled');
    if (outcome.kind === 'killed')
      throw new AgentRunFailure('error', `${agentName} was stopped: ${outcome.reason}`);
    run.clock.lap('spawn-to-exit');
    run.announce(`${config.preset} exited with code ${outcome.exitCode}`);
    return {
      exitCode: outcome.exitCode,
      reading: await run.clock.time('signal-read', () => readAgentSignal(cwd)),
    };
  };

  /** The signal's verdict: the validated output, the agent's questions, or why the round does not count. */
  const judge = (signal: AgentSignal) => {
    switch (signal.status) {
      case 'error':
        throw new AgentRunFailure('error', `${agentName} reported an error: ${quote(signal.error)}`);
      case 'questions':
        return { ok: true as const, questions: signal.questions };
      case 'done':
        // The agent may leave `role` out; if it names another role, validation says so.
        return validateAgentOutput(role, { role, ...signal.result });
    }
  };

  /**
   * A read-only mode's signal: its report (the signal file removed, the worktree checked unchanged), its
   * questions, or why the round does not count (the re-prompt says it).
   */
  const settleMode = async (
    modeName: NonNullable<typeof mode>,
    signal: AgentSignal,
  ): Promise<RoundEnd | string> => {
    if (signal.status !== 'done') return `it did not finish (${signal.status})`;
    const validated = validateModeOutputOrQuestions(modeName, signal.result);
    if (!validated.ok) return `its result does not match the ${modeName} schema (${validated.error})`;
    await checkGitControlFiles();
    await rm(join(cwd, SIGNAL_FILE), { force: true });
    await rmdir(signalDir).catch(() => {});
    return settleAgentOutput({ params, output: signal.result, patch: null, readOnlyCheck });
  };

  /** Puts back any git control file the agent changed; a changed one refuses the run. */
  const checkGitControlFiles = async () => {
    const changed = await restoreGitControlFiles(snapshot);
    if (changed.length === 0) return;
    logger.warn('a CLI agent changed git control files; restored them', { sessionID, changed });
    throw new AgentRunFailure(
      'error',
      `${agentName} changed files git runs or obeys (restored; the run is refused): ${changed.join(', ')}`,
    );
  };

  return {
    /**
     * The first round's prompt: the role's context; on a resume, the answers (same session) or, when the
     * tool cannot resume, the context followed by the questions and answers (a new session).
     */
    firstPrompt() {
      if (resume === undefined) return buildCliAgentPrompt(params.prompt, role, mode);
      if (resumesAsked) return buildAnswersPrompt(resume.questions, resume.answers);
      return buildCliAgentPrompt(
        buildRestartedPrompt(params.prompt, resume.questions, resume.answers),
        role,
        mode,
      );
    },
    play: runRound,
    async settle(run, { exitCode, reading }, round) {
      if (mode !== undefined && reading.kind === 'valid' && reading.signal.status === 'done') {
        const end = await settleMode(mode, reading.signal);
        if (typeof end !== 'string') return end;
        problem = end;
      } else if (reading.kind === 'valid') {
        const verdict = judge(reading.signal);
        if (verdict.ok && 'questions' in verdict) {
          await checkGitControlFiles();
          // The signal file is not part of the work; the resumed round writes a new one.
          await rm(join(cwd, SIGNAL_FILE), { force: true });
          return { kind: 'questions', questions: verdict.questions };
        }
        if (verdict.ok) {
          await run.clock.time('git-control-check', checkGitControlFiles);
          const result = await finishAgentResult(verdict.value, async () => {
            // The signal file is Flotilla's, not part of the work.
            await rm(join(cwd, SIGNAL_FILE), { force: true });
            await rmdir(join(cwd, '.flotilla')).catch(() => {});
            // A patch touching protected paths rejects with the paths named (a PatchRefusedError).
            return run.patch(round);
          });
          return { kind: 'result', result };
        }
        problem = `its result does not match the ${role} schema (${verdict.error})`;
      } else if (reading.kind === 'invalid') {
        problem = reading.error;
      } else {
        problem = `it exited with code ${exitCode} without writing ${SIGNAL_FILE}`;
      }
      run.announce(`no valid signal: ${problem}`);
      if (round + 1 >= MAX_ROUNDS) {
        throw new AgentRunFailure(
          'error',
          `${agentName} ended ${MAX_ROUNDS} times without a valid ${SIGNAL_FILE} (re-prompted once); last: ${problem}`,
        );
      }
      const prompt = buildMissingSignalPrompt({
        role,
        problem,
        resumed: canResume(),
        originalPrompt: params.prompt,
        mode,
      });
      return { kind: 'again', prompt };
    },
    usage: () => usageReader.usage(),
    // A tool that cannot resume gets a new session given the questions and answers.
    keep: async (run) => ({
      agentSessionID: preset.resume !== null ? agentSessionId : null,
      stateDir: run.runDir,
    }),
    toFailure: (error) =>
      new AgentRunFailure('error', `${agentName} failed: ${messageOf(error)}`, { cause: error }),
    async onFailure(failure, _error, run) {
      // Whatever else went wrong, git's control files are put back before anything runs git again.
      const changed = await restoreGitControlFiles(snapshot).catch(() => []);
      if (changed.length > 0)
        logger.warn('a CLI agent changed git control files; restored them', { sessionID, changed });
      // What the sandbox refused is part of why the run failed (never just "changed nothing").
      const explained = setup.refusals.explain(failure);
      run.sessionLog?.note(`run failed: ${explained.message}`);
      return explained;
    },
  };
}
