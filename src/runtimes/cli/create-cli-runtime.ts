import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentResult,
  type AgentRunOutcome,
  buildAnswersPrompt,
  type KeptSession,
} from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentStartParams,
  type LiveUsageReport,
  type RuntimeAdapter,
  type RuntimeAdapterConfig,
  validateAgentOutput,
} from '../../engine/runtime-contract/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Sandbox, SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import { createSessionLog, type SessionLog } from '../../session-log/create-session-log.ts';
import { createCachedCheck } from '../../shared/create-cached-check.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import type { Worktree, WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import { extractPatch } from '../../workspace/extract-patch.ts';
import { buildAgentSandboxRequest, SANDBOX_OFF_WARNING } from '../shared/build-agent-sandbox-request.ts';
import { createClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { createPhaseClock } from '../shared/create-phase-clock.ts';
import { createRunRegistry } from '../shared/create-run-registry.ts';
import { createRuntimeWorktrees } from '../shared/create-runtime-worktrees.ts';
import { createSandboxRefusals } from '../shared/create-sandbox-refusals.ts';
import { findModelEndpoints } from '../shared/find-model-endpoints.ts';
import { buildCliCommand } from './build-cli-command.ts';
import { buildCliEnv } from './build-cli-env.ts';
import { buildCliAgentPrompt, buildMissingSignalPrompt } from './build-signal-instructions.ts';
import { checkCliAvailability } from './check-cli-availability.ts';
import { type CliPreset, resolveCliPreset } from './cli-presets.ts';
import { type CliModelPrice, createCliUsageReader } from './create-cli-usage-reader.ts';
import { type AgentSignal, readAgentSignal, SIGNAL_FILE } from './read-agent-signal.ts';
import { runCliProcess } from './run-cli-process.ts';
import {
  type GitControlSnapshot,
  restoreGitControlFiles,
  snapshotGitControlFiles,
} from './snapshot-git-control-files.ts';

export interface CliRuntimeConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for worktrees (e.g. 'main'). */
  defaultBranch: string;
  logger: Logger;
  /** Per-run directories (prompt files, the agent's config/temp dirs) go under `<stateDir>/runs/<id>`. */
  stateDir: string;
  /** A built-in preset's name (`claude`, `codex`, `aider`, `gemini`, `opencode`) or `custom`. */
  preset: string;
  /** The templates of the `custom` preset (validated; see cli-presets.ts). */
  customPreset?: unknown;
  /** Replaces the preset's program (e.g. an absolute path, or `node fake-agent-cli.js` in tests). */
  program?: readonly string[];
  /**
   * The OS sandbox the agent process (and everything it runs) starts in (src/sandbox/); 'off' runs it
   * unsandboxed with a warning in every transcript. Absent: unsandboxed (the control plane always gives one).
   */
  sandbox?: Sandbox;
  /** Variables agents may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
  /** Setup command in implementor worktrees; unset = detect from the lockfile; 'none' = no setup. */
  setupCommand?: string | null;
  /** The environment agents start from (default process.env), before secrets are removed. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Added to every agent's environment. */
  extraEnv?: Readonly<Record<string, string>>;
  /** Secret-looking variables agents may see anyway (besides the preset's model credentials). */
  passThroughEnv?: readonly string[];
  /** Repository-relative paths an implementor's patch may not touch (besides the built-in ones). */
  protectedPaths?: readonly string[];
  /**
   * Shared with the other CLI roles of the repository, so git's worktree operations are serialised;
   * default: one of its own.
   */
  worktrees?: WorktreeManager;
  /** Transcript writer; default: a session log under `logging.logsDir` when `logging.agentSessions`. */
  createSessionLog?: (params: AgentStartParams) => SessionLog;
  /** The name runs are recorded under; default `cli:<preset>`. */
  runtime?: string;
  /**
   * Prices a model's per-request tokens for the live usage signal of presets that report them
   * (`claude-stream-json`; the control plane passes the Claude runtime's table). Absent: live cost unknown.
   */
  findModelPrice?: (model: string) => CliModelPrice | null;
}

/** A re-prompt is one more round: the lifecycle controller (docs/seeds.md) retries a missing signal once. */
const MAX_ROUNDS = 2;
/** How much of an agent's own error or questions a failure message quotes. */
const MAX_QUOTED_CHARS = 2_000;

/**
 * The generic CLI runtime (issue 13): runs an agent CLI through a preset in a worktree of its own, takes
 * completion from the signal file `.flotilla/signal.json`, re-prompts once when a round ends without a valid
 * signal, validates the result against the role's schema, and refuses implementor patches that touch
 * protected paths. There are no tool hooks: the guards here are the scrubbed environment, the post-run
 * checks and the time limit (README.md says what that cannot cover).
 */
export function createCliRuntime(
  config: CliRuntimeConfig,
): RuntimeAdapter & { readonly runtime: string; discardSession(session: KeptSession): Promise<void> } {
  const { logger } = config;
  const preset: CliPreset = resolveCliPreset(config.preset, config.customPreset);
  const runs = createRunRegistry();
  const claudeConfigSeed = createClaudeConfigSeed();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const worktrees = createRuntimeWorktrees(config);
  const makeSessionLog =
    config.createSessionLog ??
    ((params: AgentStartParams): SessionLog =>
      createSessionLog({
        logsDir: config.logging.logsDir,
        enabled: config.logging.agentSessions,
        sessionID: params.sessionID,
        role: params.role,
        context:
          params.role === 'planner'
            ? { specPaths: params.specPaths }
            : params.role === 'implementor'
              ? { workItemID: params.workItemID }
              : { workItemID: params.workItemID, revisionID: params.revisionID },
        logger,
      }));

  function buildEnv(runStateDir: string, worktree: Worktree): Record<string, string> {
    const extra = { ...config.extraEnv, ...buildPortEnv(worktree.ports) };
    return buildCliEnv({
      baseEnv: config.baseEnv ?? process.env,
      runStateDir,
      isRoot,
      credentialEnv: preset.credentialEnv,
      ...(config.passThroughEnv !== undefined && { passThrough: config.passThroughEnv }),
      ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
      ...(Object.keys(extra).length > 0 && { extra }),
    });
  }

  async function startAgent(params: AgentStartParams): Promise<AgentRunHandle> {
    const { sessionID, role, resume } = params;
    runs.assertIdle(sessionID);
    const clock = createPhaseClock(sessionID, config.onPhase);
    // A resumed run continues in the kept worktree and state directory (the tool's conversation is there).
    const runStateDir = resume?.session.stateDir ?? join(config.stateDir, 'runs', sessionID);
    const branchName =
      params.role === 'implementor' ? `agent/${params.branchName}` : `agent/${role}/${sessionID}`;
    let worktree: Worktree | null = null;
    const cleanUp = async () => {
      await claudeConfigSeed.learn(join(runStateDir, 'config'));
      await rm(runStateDir, { recursive: true, force: true }).catch(() => {});
      // Last: with removal behind, git starts once the result is on its way.
      if (worktree) await worktrees.remove(worktree.branchName);
    };
    let snapshot: GitControlSnapshot;
    try {
      // Planner and reviewer get a checkout too (their signal files must not collide, and they must not
      // touch the user's working tree), without the setup command: they build nothing.
      if (resume !== undefined) {
        if (resume.session.worktree === null || !existsSync(resume.session.worktree.path)) {
          throw new Error(
            `the kept worktree of the session to resume is gone (${resume.session.worktree?.path})`,
          );
        }
        worktree = resume.session.worktree;
      } else {
        worktree = await clock.time('worktree-create', () =>
          worktrees.create(branchName, { setup: role === 'implementor' }),
        );
      }
      const { path } = worktree;
      snapshot = await clock.time('git-control-snapshot', () => snapshotGitControlFiles(path));
      await clock.time('state-dir', () => mkdir(runStateDir, { recursive: true, mode: 0o700 }));
    } catch (error) {
      await cleanUp();
      throw error;
    }
    const cwd = worktree.path;
    const { baseCommit } = worktree;
    const run = runs.begin({ sessionID, role, maxAgentDuration: config.maxAgentDuration });
    const { output, notifyActivity: touch } = run;
    const sessionLog = makeSessionLog(params);
    if (config.sandbox?.mode === 'off') sessionLog.note(SANDBOX_OFF_WARNING);
    const sandboxRefusals = createSandboxRefusals(sessionLog);
    const env = buildEnv(runStateDir, worktree);
    // The claude preset's CLI keeps its state in CLAUDE_CONFIG_DIR (other tools ignore it: nothing to learn).
    // Only the run's own: one the config points elsewhere (a login) is not ours to write.
    const configDir = join(runStateDir, 'config');
    if (env.CLAUDE_CONFIG_DIR === configDir)
      await clock.time('config-seed', () => claudeConfigSeed.plant(configDir));
    /** A line of Flotilla's own in the live stream and the transcript. */
    const announce = (line: string) => {
      output.push(`${line}\n`);
      sessionLog.note(line);
      touch();
    };
    const { abortFailure } = run;
    const agentName = `the ${role} agent (${config.preset})`;

    const usageReader = createCliUsageReader(preset.usage, {
      ...(config.findModelPrice !== undefined && { findModelPrice: config.findModelPrice }),
    });
    const usageListeners = new Set<(report: LiveUsageReport) => void>();
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
    const onLine = (stream: 'stdout' | 'stderr', line: string) => {
      if (agentSessionId === null && sessionIdPattern !== null) {
        agentSessionId = sessionIdPattern.exec(line)?.[1] ?? null;
      }
      const live = stream === 'stdout' ? usageReader.line(line) : null;
      if (live !== null) for (const listener of usageListeners) listener(live);
      output.push(`${line}\n`);
      if (stream === 'stderr') sandboxRefusals.line(line);
      const text = stream === 'stderr' ? `[stderr] ${line}` : line;
      sessionLog.record({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
      touch();
    };

    /** One process: the prompt in, lines out; then the signal file says how it went. */
    const runRound = async (round: number, problem: string | null) => {
      const resume = round > 0 ? preset.resume !== null && agentSessionId !== null : resumesAsked;
      const text =
        round === 0
          ? buildFirstPrompt()
          : buildMissingSignalPrompt({
              role,
              problem: problem ?? '',
              resumed: resume,
              originalPrompt: params.prompt,
            });
      // A new session under an id we assign needs a fresh one: the first round's id is taken.
      if (round > 0 && !resume && preset.sessionId.from === 'assigned') agentSessionId = randomUUID();
      const command = buildCliCommand({
        preset,
        prompt: text,
        sessionId: agentSessionId,
        resume,
        promptFilePath: join(runStateDir, `prompt-${round + 1}.md`),
        ...(config.program !== undefined && { program: config.program }),
      });
      await rm(join(cwd, SIGNAL_FILE), { force: true });
      if (command.promptFile !== null) {
        await writeFile(command.promptFile.path, command.promptFile.content, { mode: 0o600 });
      }
      if (round > 0) announce(`re-prompting ${resume ? 'the same session' : 'in a new session'}: ${problem}`);
      else if (params.resume !== undefined) {
        announce(
          `session ${params.resume.sessionNumber}: ${resume ? 'resuming the same session' : 'a new session (this preset cannot resume)'} with a human's answers`,
        );
      }
      sessionLog.record({ type: 'user', message: { role: 'user', content: text } });
      usageReader.beginRound(resume);
      clock.lap(round === 0 ? 'session-setup' : 'fix-round-setup');
      // This run took a worktree: the next run's is checked out (a turn later) while this agent works.
      if (round === 0 && params.resume === undefined) worktrees.prepareSpare();
      let sandboxed: SandboxedCommand | null = null;
      if (config.sandbox?.mode === 'on') {
        try {
          sandboxed = await config.sandbox.wrap(
            buildAgentSandboxRequest({
              repoRoot: config.repoRoot,
              worktree: cwd,
              runStateDir,
              env,
              network: findModelEndpoints(env),
              programs: [command.file],
              onNetworkRefused: (target) => {
                sandboxRefusals.onNetworkRefused(target);
                touch();
              },
            }),
            command.file,
            command.args,
          );
        } catch (error) {
          throw new AgentRunFailure(
            'error',
            `${agentName}: the OS sandbox could not start: ${messageOf(error)}`,
          );
        }
      }
      const outcome = await runCliProcess({
        command: sandboxed === null ? command : { ...command, file: sandboxed.file, args: sandboxed.args },
        cwd,
        env: sandboxed?.env ?? env,
        signal: run.signal,
        timeoutMs: config.maxAgentDuration * 1000 + 60_000,
        onLine,
      }).finally(() => sandboxed?.dispose());
      if (run.abortReason) throw abortFailure(run.abortReason);
      if (outcome.kind === 'not-started')
        throw new AgentRunFailure('error', `${agentName}: ${outcome.reason}`);
      if (outcome.kind === 'cancelled') throw abortFailure('cancelled');
      if (outcome.kind === 'killed')
        throw new AgentRunFailure('error', `${agentName} was stopped: ${outcome.reason}`);
      clock.lap('spawn-to-exit');
      announce(`${config.preset} exited with code ${outcome.exitCode}`);
      return {
        exitCode: outcome.exitCode,
        reading: await clock.time('signal-read', () => readAgentSignal(cwd)),
      };
    };

    /**
     * The first round's prompt: the role's context; on a resume, the answers (same session) or, when the
     * tool cannot resume, the context followed by the questions and answers (a new session).
     */
    function buildFirstPrompt(): string {
      if (resume === undefined) return buildCliAgentPrompt(params.prompt, role);
      const answers = buildAnswersPrompt(resume.questions, resume.answers);
      if (resumesAsked) return answers;
      return buildCliAgentPrompt(
        `${params.prompt}\n\n## Your earlier session asked a human\n\n${answers}`,
        role,
      );
    }

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

    const finishResult = async (
      value: Extract<ReturnType<typeof judge>, { value: unknown }>['value'],
    ): Promise<AgentResult> => {
      if (value.role !== 'implementor') return value as AgentResult;
      if (value.outcome !== 'completed') return { ...value, patch: null };
      // The signal file is Flotilla's, not part of the work.
      await rm(join(cwd, SIGNAL_FILE), { force: true });
      await rmdir(join(cwd, '.flotilla')).catch(() => {});
      // A patch touching protected paths rejects with the paths named (a PatchRefusedError).
      const patch = await extractPatch({
        worktreePath: cwd,
        baseCommit,
        ...(config.protectedPaths !== undefined && { protectedPaths: config.protectedPaths }),
        localFiles: worktree.localFiles ?? worktrees.localFiles ?? [],
      });
      if (patch.trim() === '') {
        throw new AgentRunFailure(
          'no-changes',
          'the implementor reported completed but changed nothing (empty patch)',
        );
      }
      return { ...value, patch };
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

    /** Whether the worktree and state stay after the run: it asked questions and waits for answers. */
    let keepForAnswers = false;
    const result: Promise<AgentRunOutcome> = run.settle<AgentRunOutcome>(
      async () => {
        let problem: string | null = null;
        for (let round = 0; round < MAX_ROUNDS; round += 1) {
          const { exitCode, reading } = await runRound(round, problem);
          if (reading.kind === 'valid') {
            const verdict = judge(reading.signal);
            if (verdict.ok && 'questions' in verdict) {
              await checkGitControlFiles();
              // The signal file is not part of the work; the resumed round writes a new one.
              await rm(join(cwd, SIGNAL_FILE), { force: true });
              announce(
                `the agent asked ${verdict.questions.length} question(s); its session waits for answers`,
              );
              keepForAnswers = true;
              const session: KeptSession = {
                runtime: config.runtime ?? `cli:${config.preset}`,
                // A tool that cannot resume gets a new session given the questions and answers.
                agentSessionID: preset.resume !== null ? agentSessionId : null,
                worktree: { ...worktree, path: cwd, baseCommit },
                stateDir: runStateDir,
              };
              return { kind: 'questions', askedBy: role, questions: verdict.questions, session };
            }
            if (verdict.ok) {
              await clock.time('git-control-check', checkGitControlFiles);
              return await clock.time('result-and-patch', () => finishResult(verdict.value));
            }
            problem = `its result does not match the ${role} schema (${verdict.error})`;
          } else if (reading.kind === 'invalid') {
            problem = reading.error;
          } else {
            problem = `it exited with code ${exitCode} without writing ${SIGNAL_FILE}`;
          }
          announce(`no valid signal: ${problem}`);
        }
        throw new AgentRunFailure(
          'error',
          `${agentName} ended ${MAX_ROUNDS} times without a valid ${SIGNAL_FILE} (re-prompted once); last: ${problem}`,
        );
      },
      {
        sessionLog,
        cleanUp: async () => {
          if (!keepForAnswers) await clock.time('cleanup', cleanUp);
        },
        toFailure: (error) =>
          new AgentRunFailure('error', `${agentName} failed: ${messageOf(error)}`, { cause: error }),
        onFailure: async (thrown) => {
          // Whatever else went wrong, git's control files are put back before anything runs git again.
          const changed = await restoreGitControlFiles(snapshot).catch(() => []);
          if (changed.length > 0)
            logger.warn('a CLI agent changed git control files; restored them', { sessionID, changed });
          // What the sandbox refused is part of why the run failed (never just "changed nothing").
          const failure = sandboxRefusals.explain(thrown);
          sessionLog.note(`run failed: ${failure.message}`);
          return failure;
        },
      },
    );

    return {
      ...run.handle(result, { logFilePath: sessionLog.filePath, usage: () => usageReader.usage() }),
      onUsage(listener) {
        usageListeners.add(listener);
        return () => usageListeners.delete(listener);
      },
    };
  }

  return {
    runtime: config.runtime ?? `cli:${config.preset}`,
    isAvailable: createCachedCheck(() =>
      checkCliAvailability({
        presetName: config.preset,
        preset,
        ...(config.program !== undefined && { program: config.program }),
        env: { ...(config.baseEnv ?? process.env), ...config.extraEnv },
        cwd: config.repoRoot,
      }),
    ),
    startAgent,
    cancelAgent: (sessionID) => runs.cancel(sessionID),
    async discardSession(session) {
      if (session.worktree !== null) await worktrees.remove(session.worktree.branchName);
      if (session.stateDir !== null)
        await rm(session.stateDir, { recursive: true, force: true }).catch(() => {});
    },
  };
}

function quote(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}… (cut)` : text;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
