import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Codex, type ThreadEvent, type Usage } from '@openai/codex-sdk';
import {
  type AgentQuestions,
  type AgentResult,
  type AgentRole,
  type AgentRunOutcome,
  type AgentUsage,
  buildAnswersPrompt,
  CREDENTIALS_FAILURE_PREFIX,
  type KeptSession,
} from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentStartParams,
  classifyLimitMessage,
  type LiveUsageReport,
  type RuntimeAdapter,
  type RuntimeAdapterConfig,
  validateAgentOutputOrQuestions,
} from '../../engine/runtime-contract/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { findOnPath } from '../../sandbox/find-on-path.ts';
import type { Sandbox, SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import { createSessionLogFactory } from '../../session-log/create-session-log-factory.ts';
import { createCachedCheck } from '../../shared/create-cached-check.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import type { Worktree, WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import { extractPatch } from '../../workspace/extract-patch.ts';
import {
  buildAgentSandboxRequest,
  createValidationWrapper,
  SANDBOX_OFF_WARNING,
} from '../shared/build-agent-sandbox-request.ts';
import { createPhaseClock } from '../shared/create-phase-clock.ts';
import { createRunRegistry } from '../shared/create-run-registry.ts';
import { createRuntimeWorktrees } from '../shared/create-runtime-worktrees.ts';
import { createSandboxRefusals } from '../shared/create-sandbox-refusals.ts';
import {
  runValidationRound,
  startFixRound,
  type ValidationSettings,
} from '../shared/run-validation-round.ts';
import { buildCodexConfigToml, type CodexProvider } from './build-codex-config-toml.ts';
import { buildCodexEnv, buildCodexValidationEnv, OPENAI_KEY_VARIABLES } from './build-codex-env.ts';
import { buildCodexInstructions } from './build-codex-instructions.ts';
import { buildCodexOutputSchema } from './build-codex-output-schema.ts';
import { checkCodexAvailability } from './check-codex-availability.ts';
import type { CodexModelPrice } from './codex-prices.ts';
import { createCodexHomes } from './create-codex-homes.ts';
import { type CodexUsageTail, createCodexUsageTail } from './create-codex-usage-tail.ts';
import { type CodexBinary, findCodexBinary } from './find-codex-binary.ts';
import { mapCodexEvent } from './map-codex-event.ts';
import { readCodexUsage, subtractCodexUsage } from './read-codex-usage.ts';
import { findCodexSandboxProblem, readStderrTail, writeCodexLauncher } from './write-codex-launcher.ts';

export interface CodexRuntimeConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for implementor worktrees (e.g. 'main'). */
  defaultBranch: string;
  logger: Logger;
  /** CODEX_HOME directories go under `<stateDir>/runs/` (e.g. `<repo>/.flotilla/codex`), one per run. */
  stateDir: string;
  /** Files (relative to repoRoot) appended to every role's instructions, read fresh per run. */
  contextPaths?: readonly string[];
  /** Replaces Flotilla's built-in role text (see build-codex-instructions.ts). */
  roleInstructions?: Partial<Record<AgentRole, string>>;
  /** Model per role; unset: `model`, else codex's default. */
  models?: Partial<Record<AgentRole, string>>;
  model?: string;
  /** A custom Responses-API provider (e.g. the scripted model server); unset: codex's built-in OpenAI one. */
  provider?: CodexProvider;
  /** Price table for cost (default: codex-prices.ts). */
  prices?: Readonly<Record<string, CodexModelPrice>>;
  /** Setup command run in each implementor worktree; unset = detect from the lockfile; 'none' = no setup. */
  setupCommand?: string | null;
  /**
   * The repository's worktree manager, shared with the other runtimes so git's worktree operations are
   * serialised (the control plane passes one that prepares ahead and removes behind); default: one of its own.
   */
  worktrees?: WorktreeManager;
  /** The environment codex starts from (default process.env), before secrets are removed. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Added to codex's environment last (tests: the proxy tripwire). */
  extraEnv?: Readonly<Record<string, string>>;
  /** Secret-looking variables codex may see anyway (its commands still do not: see the config). */
  passThroughEnv?: readonly string[];
  /** The codex binary (default: the one `@openai/codex-sdk` bundles). */
  codexPath?: string;
  /** Session transcript writer; default: session-log/ when `logging.agentSessions` is on. */
  createSessionLog?: (params: AgentStartParams) => SessionLog;
  /** The name runs are recorded under (default `codex`; `scripted` against the scripted model server). */
  runtime?: string;
  /** In-session validation of the implementor's work (docs/seeds.md §Validation Loop), as in the Claude runtime. */
  validation?: ValidationSettings;
  /**
   * The OS sandbox codex (and every command it runs) starts in (src/sandbox/); codex's own sandbox is then
   * not used. 'off': codex's own sandbox only, with a warning in every transcript. Absent: the same as 'off'
   * without the warning (the control plane always gives one).
   */
  sandbox?: Sandbox;
  /** Variables codex may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
}

/** One codex turn, as the run needs it. */
interface TurnOutcome {
  /** The last agent message (the structured output's JSON). */
  finalMessage: string | null;
  /** `turn.failed` / `error` event message, or what the stream threw. */
  failure: string | null;
  thrown: unknown;
}

const tokensOf = (usage: AgentUsage | null) => (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);

/** What codex and its provider say when the key is missing or refused. */
const AUTHENTICATION_ERRORS =
  /\b401\b|Unauthorized|Missing environment variable|invalid_api_key|Incorrect API key/i;

/**
 * The implementor's scratch branch: under `agent/`, so a provider keeping revisions as local branches never
 * sees its branch reset or deleted (the same rule as the Claude runtime).
 */
export function buildCodexAgentBranchName(branchName: string): string {
  return `agent/${branchName}`;
}

/**
 * The Codex runtime (issue 13): each run drives the `codex` binary of `@openai/codex-sdk` with a per-run
 * CODEX_HOME under `stateDir`, the role's instructions and strict output schema, codex's sandbox
 * (`workspace-write` in the implementor's worktree, `read-only` in the repository for planner and reviewer,
 * no network, no approvals) and a scrubbed environment. Events stream into the live output and transcript;
 * the final agent message is the role's result, validated as untrusted input.
 */
export function createCodexRuntime(config: CodexRuntimeConfig): RuntimeAdapter {
  const { logger } = config;
  const runs = createRunRegistry();
  // One per run: the agent writes its CODEX_HOME, and the next run must not read what it planted there.
  const homes = createCodexHomes(join(config.stateDir, 'runs'));
  const worktrees = createRuntimeWorktrees(config);
  const createSessionLog =
    config.createSessionLog ??
    (config.logging.agentSessions
      ? createSessionLogFactory({ logsDir: config.logging.logsDir, enabled: true, logger })
      : null);
  const modelKeyVariables = config.provider ? [config.provider.envKey] : [...OPENAI_KEY_VARIABLES];

  /** The project context files, read fresh per run; a missing one is a provisioning failure naming it. */
  async function readContextFiles(): Promise<{ path: string; text: string }[]> {
    return Promise.all(
      (config.contextPaths ?? []).map(async (path) => {
        const file = join(config.repoRoot, path);
        try {
          return { path, text: await readFile(file, 'utf8') };
        } catch (error) {
          throw new Error(`Cannot read the project context file ${file}: ${messageOf(error)}`, {
            cause: error,
          });
        }
      }),
    );
  }

  async function startAgent(params: AgentStartParams): Promise<AgentRunHandle> {
    const { sessionID, role, resume } = params;
    runs.assertIdle(sessionID);
    const clock = createPhaseClock(sessionID, config.onPhase);
    const runtimeName = config.runtime ?? 'codex';
    const model = config.models?.[role] ?? config.model;
    let worktree: Worktree | null = null;
    let codexHome = '';
    /** The run's codex state (its CODEX_HOME inside): kept with the session when the agent asks. */
    let codexStateDir: string | null = null;
    let usageTail: CodexUsageTail | null = null;
    /** Whether the worktree and the thread stay after the run: the agent asked and waits for answers. */
    let keepForAnswers = false;
    /** The run's own directory: the launcher script, codex's stderr, the sandbox's git dir. */
    const runDir = join(config.stateDir, 'runs', `run-${sessionID}`);
    let launcher: SandboxedCommand | null = null;
    const cleanUp = async () => {
      // Stopped before the rollout it follows is removed.
      await usageTail?.close();
      await launcher?.dispose().catch(() => {});
      await rm(runDir, { recursive: true, force: true }).catch(() => {});
      if (keepForAnswers) return;
      if (codexStateDir !== null) await homes.remove(codexStateDir).catch(() => {});
      // Last: with removal behind, git starts once the result is on its way.
      if (worktree) await worktrees.remove(worktree.branchName);
    };

    /** A resumed thread's usage up to the resume (codex counts it again in every later turn). */
    let priorThreadUsage: Usage | null = null;
    /** The thread's cumulative usage as codex last reported it. */
    let threadUsage: Usage | null = null;
    let outputSchema: Record<string, unknown>;
    try {
      outputSchema = buildCodexOutputSchema(role);
      if (resume !== undefined) {
        // The thread continues in the CODEX_HOME that holds its rollout; its config.toml is written again.
        const kept = checkKeptSession(resume.session, runtimeName);
        worktree = kept.worktree;
        codexStateDir = kept.stateDir;
        priorThreadUsage = await homes.readThreadUsage(codexStateDir);
      } else if (params.role === 'implementor') {
        const branchName = buildCodexAgentBranchName(params.branchName);
        worktree = await clock.time('worktree-create', () => worktrees.create(branchName));
      }
      const developerInstructions = buildCodexInstructions({
        role,
        ...(config.roleInstructions?.[role] !== undefined && {
          roleInstructions: config.roleInstructions[role],
        }),
        contextFiles: await readContextFiles(),
      });
      const configToml = buildCodexConfigToml({
        developerInstructions,
        ...(model !== undefined && { model }),
        ...(config.provider !== undefined && { provider: config.provider }),
      });
      const home = await clock.time('codex-home', () =>
        codexStateDir === null
          ? homes.create(sessionID, configToml)
          : homes.reopen(codexStateDir, configToml),
      );
      codexStateDir = home.stateDir;
      codexHome = home.codexHome;
    } catch (error) {
      await cleanUp();
      throw error;
    }

    const env = buildCodexEnv({
      baseEnv: config.baseEnv ?? process.env,
      codexHome,
      modelKeyVariables,
      ...(config.passThroughEnv !== undefined && { passThrough: config.passThroughEnv }),
      ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
      extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
    });
    const cwd = worktree?.path ?? config.repoRoot;
    const sandboxed = config.sandbox?.mode === 'on';
    // What the sandbox refuses goes to the transcript (created below, before codex starts) and the failure.
    const sandboxRefusals = createSandboxRefusals({ note: (text) => sessionLog?.note(text) });
    const stderrLog = join(runDir, 'codex-stderr.log');
    try {
      await mkdir(runDir, { recursive: true, mode: 0o700 });
      const binary: CodexBinary =
        config.codexPath !== undefined
          ? { executablePath: config.codexPath, pathDirs: [] }
          : findCodexBinary();
      const codexEnv = { ...env };
      if (binary.pathDirs.length > 0)
        codexEnv.PATH = [...binary.pathDirs, ...(env.PATH === undefined ? [] : [env.PATH])].join(':');
      launcher =
        sandboxed && config.sandbox !== undefined
          ? await clock.time('sandbox', () =>
              config.sandbox!.wrap(
                buildAgentSandboxRequest({
                  repoRoot: config.repoRoot,
                  worktree: worktree?.path ?? null,
                  runStateDir: runDir,
                  extraWritable: [codexHome],
                  env: codexEnv,
                  network:
                    config.provider !== undefined
                      ? [config.provider.baseUrl]
                      : [codexEnv.OPENAI_BASE_URL ?? 'https://api.openai.com'],
                  programs: [binary.executablePath],
                  onNetworkRefused: sandboxRefusals.onNetworkRefused,
                }),
                binary.executablePath,
                [],
              ),
            )
          : { file: binary.executablePath, args: [], env: codexEnv, dispose: async () => {} };
    } catch (error) {
      await cleanUp();
      throw new Error(sandboxed ? `the OS sandbox could not start: ${messageOf(error)}` : messageOf(error));
    }
    const launcherPath = await writeCodexLauncher(runDir, launcher, stderrLog);
    const codex = new Codex({ env: launcher.env, codexPathOverride: launcherPath });
    const threadOptions = {
      workingDirectory: cwd,
      // Inside Flotilla's sandbox codex's own would nest a second bubblewrap: ours is the boundary. Without
      // it, planner and reviewer read the repository; only the implementor writes, and only its worktree.
      sandboxMode: sandboxed
        ? 'danger-full-access'
        : role === 'implementor'
          ? 'workspace-write'
          : 'read-only',
      approvalPolicy: 'never',
      networkAccessEnabled: false,
      webSearchMode: 'disabled',
    } as const;
    // Answers continue the asking thread: codex sends its earlier turns from the rollout in CODEX_HOME.
    const codexThread =
      resume?.session.agentSessionID != null
        ? codex.resumeThread(resume.session.agentSessionID, threadOptions)
        : codex.startThread(threadOptions);

    const run = runs.begin({ sessionID, role, maxAgentDuration: config.maxAgentDuration });
    const { output, notifyActivity } = run;
    const sessionLog = createSessionLog?.(params) ?? null;
    if (config.sandbox?.mode === 'off') sessionLog?.note(SANDBOX_OFF_WARNING);
    let latestUsage: Usage | null = null;
    let turns = 0;
    let usage: AgentUsage | null = null;
    // Live usage (the engine's budgets): the thread's total after every model response, from its rollout.
    const usageListeners = new Set<(report: LiveUsageReport) => void>();
    let liveUsage: AgentUsage | null = null;
    let rolloutModel: string | null = null;
    const reportUsage = (threadUsage: Usage, turnsSoFar: number) => {
      const priced = readCodexUsage({
        // A resumed thread's rollout and turns count the asking run's tokens again: only this run's are its.
        usage: subtractCodexUsage(threadUsage, priorThreadUsage),
        turns: turnsSoFar,
        model: model ?? rolloutModel ?? undefined,
        ...(config.prices && { prices: config.prices }),
      });
      if (priced === null || tokensOf(priced) <= tokensOf(liveUsage)) return;
      liveUsage = priced;
      const report = { usage: priced, model: model ?? rolloutModel };
      for (const listener of usageListeners) listener(report);
    };
    usageTail = createCodexUsageTail({
      sessionsDir: join(codexHome, 'sessions'),
      onUsage: (threadUsage, seenModel) => {
        rolloutModel = seenModel ?? rolloutModel;
        reportUsage(threadUsage, turns + 1);
      },
    });
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    // This run took a worktree: the next run's is checked out while this agent works.
    if (worktree !== null && resume === undefined) void started.then(() => worktrees.prepareSpare());

    const validation =
      worktree !== null && config.validation !== undefined && config.validation.commands.length > 0
        ? config.validation
        : null;

    /** A line of Flotilla's own in the live stream and the transcript. */
    const announce = (line: string) => {
      output.push(`${line}\n`);
      sessionLog?.note(line);
      notifyActivity();
    };

    const handleEvent = (event: ThreadEvent, turn: TurnOutcome) => {
      switch (event.type) {
        case 'thread.started':
          usageTail?.follow(event.thread_id);
          sessionLog?.record({
            type: 'system',
            subtype: 'init',
            model: model ?? 'codex default',
            cwd,
            tools: [],
          });
          break;
        case 'item.completed':
          if (event.item.type === 'agent_message') turn.finalMessage = event.item.text;
          break;
        case 'turn.completed':
          threadUsage = event.usage;
          latestUsage = subtractCodexUsage(event.usage, priorThreadUsage);
          turns += 1;
          usage = readCodexUsage({
            usage: latestUsage,
            turns,
            model: model ?? rolloutModel ?? undefined,
            ...(config.prices && { prices: config.prices }),
          });
          reportUsage(event.usage, turns);
          sessionLog?.record({
            type: 'result',
            subtype: 'success',
            num_turns: turns,
            total_cost_usd: usage?.costUSD ?? undefined,
            usage: { input_tokens: event.usage.input_tokens, output_tokens: event.usage.output_tokens },
          });
          break;
        case 'turn.failed':
          turn.failure = event.error.message;
          sessionLog?.record({
            type: 'result',
            subtype: 'error',
            is_error: true,
            result: event.error.message,
          });
          break;
        case 'error':
          turn.failure ??= event.message;
          break;
      }
      const mapped = mapCodexEvent(event);
      for (const message of mapped.logMessages) sessionLog?.record(message);
      for (const text of mapped.texts) output.push(text);
      if (mapped.notice !== undefined) sessionLog?.note(mapped.notice);
      if (mapped.activity) notifyActivity();
    };

    /** One turn (the first prompt, or a fix round resuming the thread). */
    const runTurn = async (prompt: string): Promise<TurnOutcome> => {
      const turn: TurnOutcome = { finalMessage: null, failure: null, thrown: undefined };
      let first = true;
      try {
        const { events } = await codexThread.runStreamed(prompt, {
          outputSchema,
          signal: run.signal,
        });
        for await (const event of events) {
          if (first) clock.lap('spawn-to-first-message');
          first = false;
          markStarted();
          handleEvent(event, turn);
          if (event.type === 'turn.completed' || event.type === 'turn.failed')
            clock.lap('first-message-to-result');
        }
      } catch (error) {
        turn.thrown = error;
        turn.failure ??= messageOf(error);
      } finally {
        clock.lap('result-to-exit');
        markStarted();
      }
      // A sandbox that could not run codex's commands is the run's failure, never "changed nothing".
      const sandboxProblem = await findCodexSandboxProblem(stderrLog, {
        ownSandboxWithSystemBwrap: !sandboxed && findOnPath('bwrap', env.PATH ?? '') !== undefined,
      });
      if (sandboxProblem !== null) {
        sessionLog?.note(`codex's sandbox failed: ${sandboxProblem}`);
        turn.failure = `codex's sandbox could not run commands: ${sandboxProblem}`;
      } else if (turn.thrown !== undefined) {
        // codex's stderr goes to the run's log (the launcher), not into the SDK's error: quote its end.
        const tail = await readStderrTail(stderrLog);
        if (tail !== '') turn.failure = `${turn.failure ?? 'codex failed'} ${tail}`;
      }
      return turn;
    };

    const validate = async (round: number): Promise<void> => {
      if (validation === null || worktree === null) return;
      await runValidationRound({
        validation,
        round,
        cwd: worktree.path,
        env: buildCodexValidationEnv(env, modelKeyVariables),
        signal: run.signal,
        announce,
        notifyActivity,
        wrap: createValidationWrapper(config.sandbox, {
          repoRoot: config.repoRoot,
          worktree: worktree.path,
          runStateDir: runDir,
        }),
      });
    };

    /**
     * The final message → the role's validated result (the implementor's patch for `completed`), or the
     * agent's questions for a human: then the worktree and the thread's rollout are kept for the resume.
     */
    const assemble = async (turn: TurnOutcome, round: number): Promise<AgentRunOutcome> => {
      if (turn.finalMessage === null || turn.finalMessage.trim() === '') {
        throw new AgentRunFailure('error', `the ${role} session ended without a final message`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(turn.finalMessage);
      } catch {
        const shown = turn.finalMessage.trim().slice(0, 200);
        throw new AgentRunFailure(
          'error',
          `the ${role}'s final message is not the JSON its schema asks for: "${shown}"`,
        );
      }
      const validated = validateAgentOutputOrQuestions(role, parsed);
      if (!validated.ok) throw new AgentRunFailure('error', validated.error);
      if (validated.value.kind === 'questions') return await waitForAnswers(validated.value.questions);
      const result = validated.value.output;
      if (result.role !== 'implementor') return result as AgentResult;
      if (result.outcome !== 'completed' || worktree === null) return { ...result, patch: null };
      await validate(round);
      const patch = await extractPatch({
        worktreePath: worktree.path,
        baseCommit: worktree.baseCommit,
        localFiles: worktree.localFiles ?? worktrees.localFiles ?? [],
      });
      if (patch.trim() === '') {
        throw new AgentRunFailure(
          'no-changes',
          'the implementor reported completed but changed nothing (empty patch)',
        );
      }
      return { ...result, patch };
    };

    const waitForAnswers = async (questions: string[]): Promise<AgentQuestions> => {
      announce(`the agent asked ${questions.length} question(s); its thread waits for answers`);
      keepForAnswers = true;
      if (codexThread.id !== null && threadUsage !== null)
        await homes.saveThreadUsage(codexStateDir ?? codexHome, threadUsage);
      const session: KeptSession = {
        runtime: runtimeName,
        agentSessionID: codexThread.id,
        worktree,
        // The run's codex state, its CODEX_HOME inside: the resume continues there, discardSession removes it.
        stateDir: codexStateDir,
      };
      return { kind: 'questions', askedBy: role, questions, session };
    };

    const firstPrompt =
      resume === undefined ? params.prompt : buildAnswersPrompt(resume.questions, resume.answers);
    if (resume !== undefined) {
      announce(`session ${resume.sessionNumber}: resuming the same codex thread with a human's answers`);
      sessionLog?.record({ type: 'user', message: { role: 'user', content: firstPrompt } });
    }
    /** Credentials and limits: the failure the engine should see. */
    const classifyFailure = (failure: AgentRunFailure, error: unknown): AgentRunFailure => {
      if (failure.reason !== 'error') return failure;
      if (AUTHENTICATION_ERRORS.test(failure.message)) {
        return new AgentRunFailure(
          'error',
          `${CREDENTIALS_FAILURE_PREFIX} the ${role} could not authenticate with the model API (${failure.message}). ` +
            `Set ${modelKeyVariables.join(' or ')} for \`flotilla run\`. Not retried: every attempt would fail alike.`,
          { cause: error },
        );
      }
      // 429/5xx/usage limits park the runtime instead of counting as a failed attempt (judged on the text:
      // codex reports no HTTP status).
      const fromProvider =
        !(error instanceof AgentRunFailure) || error.message.startsWith(`the ${role} session failed:`);
      const limit = fromProvider ? classifyLimitMessage(failure.message, { now: Date.now() }) : null;
      return limit === null
        ? failure
        : new AgentRunFailure(limit.reason, failure.message, { cause: error, resetsAt: limit.resetsAt });
    };
    const result: Promise<AgentRunOutcome> = run.settle<AgentRunOutcome>(
      async () => {
        for (let round = 0, prompt = firstPrompt; ; round += 1) {
          clock.lap(round === 0 ? 'session-setup' : 'fix-round-setup');
          const turn = await runTurn(prompt);
          if (run.abortReason) throw run.abortFailure(run.abortReason);
          if (turn.failure !== null) {
            throw new AgentRunFailure('error', `the ${role} session failed: ${turn.failure}`, {
              cause: turn.thrown,
            });
          }
          try {
            return await clock.time('result-and-patch', () => assemble(turn, round));
          } catch (error) {
            prompt = startFixRound({
              error,
              round,
              maxRounds: validation?.maxRounds ?? 0,
              aborted: run.abortReason !== null,
              resumed: 'thread',
              announce,
            });
            sessionLog?.record({ type: 'user', message: { role: 'user', content: prompt } });
          }
        }
      },
      {
        sessionLog,
        cleanUp: () => clock.time('cleanup', cleanUp),
        onFailure: (failure, error) => sandboxRefusals.explain(classifyFailure(failure, error)),
      },
    );

    // Also when a run keeps its thread (no clean-up): the tail never outlives the run.
    void result.catch(() => {}).finally(() => usageTail?.close());
    await started;
    return {
      ...run.handle(result, {
        logFilePath: sessionLog?.filePath ?? null,
        // A run stopped mid-turn (cancel, budget) has no turn.completed: the rollout's figures are its spend.
        usage: () => (tokensOf(liveUsage) > tokensOf(usage) ? liveUsage : usage),
      }),
      onUsage(listener) {
        usageListeners.add(listener);
        return () => usageListeners.delete(listener);
      },
    };
  }

  return {
    runtime: config.runtime ?? 'codex',
    isAvailable: createCachedCheck(() =>
      checkCodexAvailability({
        env: { ...(config.baseEnv ?? process.env), ...config.extraEnv },
        ...(config.provider !== undefined && { provider: config.provider }),
        ...(config.codexPath !== undefined && { codexPath: config.codexPath }),
      }),
    ),
    startAgent,
    cancelAgent: (sessionID) => runs.cancel(sessionID),
    async discardSession(session) {
      if (session.worktree !== null) await worktrees.remove(session.worktree.branchName).catch(() => {});
      if (session.stateDir !== null) await homes.remove(session.stateDir).catch(() => {});
    },
  };
}

/** A kept session this runtime can resume: its thread id, its CODEX_HOME and its worktree still there. */
function checkKeptSession(
  session: KeptSession,
  runtime: string,
): { worktree: Worktree | null; stateDir: string; threadId: string } {
  if (session.runtime !== runtime)
    throw new Error(`the session to resume was kept by runtime '${session.runtime}', not '${runtime}'`);
  if (session.agentSessionID === null) throw new Error('the session to resume has no codex thread id');
  if (session.stateDir === null || !existsSync(session.stateDir))
    throw new Error(`the CODEX_HOME of the session to resume is gone (${session.stateDir})`);
  if (session.worktree !== null && !existsSync(session.worktree.path))
    throw new Error(`the kept worktree of the session to resume is gone (${session.worktree.path})`);
  return { worktree: session.worktree, stateDir: session.stateDir, threadId: session.agentSessionID };
}
