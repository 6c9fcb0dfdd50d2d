import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AbortError,
  type HookCallback,
  type HookJSONOutput,
  query,
  type SDKResultMessage,
} from '@anthropic-ai/claude-agent-sdk';
import {
  type AgentQuestions,
  type AgentRole,
  type AgentRunOutcome,
  type AgentUsage,
  buildAnswersPrompt,
  formatUSD,
  type KeptSession,
} from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentRunRequest,
  type AgentStartParams,
  buildOutputOrQuestionsJsonSchema,
  classifyLimitMessage,
  type LiveUsageReport,
  type RuntimeAdapter,
  type RuntimeAdapterConfig,
} from '../../engine/runtime-contract/index.ts';
import {
  type AgentEnvAccount,
  buildAgentEnv,
  parseVariableReference,
} from '../../guards/agent-env/build-agent-env.ts';
import type { BashValidatorHook } from '../../guards/bash-validator/index.ts';
import {
  AGENT_SESSION_TOOLS,
  createPathGuardHook,
  type PathGuardHook,
} from '../../guards/path-guard/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { killProcessesWithEnv } from '../../process/kill-processes-with-env.ts';
import type { Sandbox, SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import { createSessionLogFactory } from '../../session-log/create-session-log-factory.ts';
import { createCachedCheck } from '../../shared/create-cached-check.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import {
  WORKTREES_DIR,
  type Worktree,
  type WorktreeManager,
} from '../../workspace/create-worktree-manager.ts';
import { extractPatch } from '../../workspace/extract-patch.ts';
import { buildValidationEnv } from '../../workspace/validation/build-validation-env.ts';
import {
  buildAgentSandboxRequest,
  createValidationWrapper,
  SANDBOX_OFF_WARNING,
} from '../shared/build-agent-sandbox-request.ts';
import { createClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { createPhaseClock } from '../shared/create-phase-clock.ts';
import { createRunRegistry } from '../shared/create-run-registry.ts';
import { createRuntimeWorktrees } from '../shared/create-runtime-worktrees.ts';
import { createSandboxRefusals } from '../shared/create-sandbox-refusals.ts';
import {
  runValidationRound,
  startFixRound,
  type ValidationSettings,
} from '../shared/run-validation-round.ts';
import { assembleAgentResult, readUsage } from './assemble-agent-result.ts';
import { buildClaudeHooks } from './build-claude-hooks.ts';
import { checkClaudeAvailability } from './check-claude-availability.ts';
import { classifyCredentialsFailure } from './classify-credentials-failure.ts';
import { ASK_HUMAN_TOOL, createAskHumanTool, withAskHumanTool } from './create-ask-human-tool.ts';
import { createLiveUsageMeter } from './create-live-usage-meter.ts';
import { createSandboxedSpawn } from './create-sandboxed-spawn.ts';
import { extractOutputText } from './extract-output-text.ts';
import { findClaudeExecutable } from './find-claude-executable.ts';
import { loadAgentDefinition } from './load-agent-definition.ts';
import { readRetryAfterMs } from './read-retry-after.ts';
import { sumUsage } from './sum-usage.ts';

export interface ClaudeAdapterConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for worktrees (e.g. 'main'). */
  defaultBranch: string;
  /** Files (relative to repoRoot) appended to every agent's prompt; callers default to ['.claude/CLAUDE.md']. */
  contextPaths: string[];
  bashValidatorHook: BashValidatorHook;
  logger: Logger;
  /** Setup command run in each implementor worktree; unset = detect from the lockfile; 'none' = no setup. */
  setupCommand?: string | null;
  /**
   * The repository's worktree manager, shared with the other runtimes so git's worktree operations are
   * serialised (the control plane passes one that prepares ahead and removes behind); default: one of its own.
   */
  worktrees?: WorktreeManager;
  /** Where per-run CLI config and temp directories go (e.g. `<repo>/.flotilla/claude`). */
  stateDir: string;
  /** Model per role, overriding the agent file. */
  models?: Partial<Record<AgentRole, string>>;
  /** The environment agents start from (default process.env), before secrets are removed. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Added to every agent's environment (e.g. ANTHROPIC_BASE_URL of the scripted model server). */
  extraEnv?: Readonly<Record<string, string>> | undefined;
  /** Secret-looking variables agents may see anyway. */
  passThroughEnv?: readonly string[];
  /**
   * This runtime's accounts (config `accounts`): name → `{ AGENT_VARIABLE: '$FLOTILLA_VARIABLE' }`. A run
   * given an account (AgentStartParams.account) gets only that account's credentials.
   */
  accounts?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Absolute paths agents' file tools may read besides their worktree (config `pathGuard.readOnlyPaths`). */
  readOnlyPaths?: readonly string[];
  /** Session transcript writer; default: session-log/ when `logging.agentSessions` is on. */
  createSessionLog?: SessionLogFactory;
  /**
   * The name runs are recorded under (default `claude`); `scripted` when extraEnv points the CLI at the
   * scripted model server, whose costs are made up.
   */
  runtime?: string;
  /**
   * In-session validation of the implementor's work (docs/seeds.md §Validation Loop): after it reports `completed`, the commands run
   * in its worktree; on failure the same SDK session is resumed with the errors, up to `maxRounds` times.
   * Absent or no commands: no validation.
   */
  validation?: ValidationSettings;
  /**
   * The OS sandbox the claude CLI (and so every tool it runs) starts in (src/sandbox/); 'off' runs it
   * unsandboxed with a warning in every transcript. Absent: unsandboxed (tests of other concerns only — the
   * control plane always gives one).
   */
  sandbox?: Sandbox;
  /** Variables agents may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
}

/** Makes the transcript writer of one run (see session-log/create-session-log-factory.ts). */
export type SessionLogFactory = (params: AgentRunRequest) => SessionLog;

/**
 * The implementor's scratch branch (and worktree path). It lives under `agent/` rather than on the run's
 * branch itself: providers that keep revisions as local branches (the local provider's `flotilla/<id>`)
 * must not see their branch reset to the default branch and deleted while a rework runs.
 */
export function buildAgentBranchName(branchName: string): string {
  return `agent/${branchName}`;
}

/**
 * The HTTP status of the API error that ended the session (the CLI reports it after its own retries), null
 * when the result says none did, undefined when there is no result to tell (the text is judged instead).
 */
function apiErrorStatusOf(result: SDKResultMessage | undefined): number | null | undefined {
  if (result === undefined) return undefined;
  return 'api_error_status' in result ? (result.api_error_status ?? null) : null;
}

/** The SDK hook around a narrowed guard: never throws, never returns nothing — it fails closed. */
function toSdkHook(
  hook: BashValidatorHook | PathGuardHook,
  logger: Logger,
  name = 'bash validator',
): HookCallback {
  return async (input): Promise<HookJSONOutput> => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    try {
      const verdict = await hook({
        tool_name: input.tool_name,
        tool_input: (input.tool_input ?? {}) as Record<string, unknown>,
        cwd: input.cwd,
      });
      if (verdict && typeof verdict === 'object') return verdict;
      return { decision: 'block', reason: `Blocked: the ${name} gave no verdict` };
    } catch (error) {
      logger.error(`${name} hook threw; blocking the tool call`, { error: messageOf(error) });
      return { decision: 'block', reason: `Blocked: the ${name} failed (${messageOf(error)})` };
    }
  };
}

/**
 * The RuntimeAdapter for Claude (docs/seeds.md, seed 001): implementor worktrees, the engine's finished prompt as the user
 * message, inline agent definitions, structured output validated with Zod, the bash validator and the path
 * guard as PreToolUse hooks, live text output, duration timeout and cancel keyed by the engine's session ID
 * (also the SDK session ID).
 */
export function createClaudeAdapter(config: ClaudeAdapterConfig): RuntimeAdapter {
  const { logger } = config;
  const runs = createRunRegistry();
  const worktrees = createRuntimeWorktrees(config);
  const sdkHook = toSdkHook(config.bashValidatorHook, logger);
  const configSeed = createClaudeConfigSeed();
  /** Found at the first run or preflight, then kept (see find-claude-executable.ts). */
  let executable: string | null | undefined;
  const claudeExecutable = () => {
    if (executable === undefined) executable = findClaudeExecutable();
    return executable;
  };
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const createSessionLog =
    config.createSessionLog ??
    (config.logging.agentSessions
      ? createSessionLogFactory({ logsDir: config.logging.logsDir, enabled: true, logger })
      : null);

  const accountSources = Object.values(config.accounts ?? {}).flatMap((env) =>
    Object.values(env).flatMap((reference) => parseVariableReference(reference) ?? []),
  );
  const accountEnvOf = (name: string): AgentEnvAccount => {
    const env = config.accounts?.[name];
    if (env === undefined) throw new Error(`account '${name}' is not configured for this runtime`);
    return { name, env, allSources: accountSources };
  };

  async function startAgent(params: AgentStartParams): Promise<AgentRunHandle> {
    const { sessionID, role, resume } = params;
    runs.assertIdle(sessionID);
    const clock = createPhaseClock(sessionID, config.onPhase);
    let worktree: Worktree | null = null;
    // A resumed run continues in the kept state dir (the SDK's conversation is there) and worktree.
    const runStateDir = resume?.session.stateDir ?? join(config.stateDir, 'runs', sessionID);
    /** The SDK session: the engine's id for a new run, the asking run's for a resume. */
    const sdkSessionID = resume?.session.agentSessionID ?? sessionID;
    let sandboxed: SandboxedCommand | null = null;
    const cleanUp = async () => {
      await sandboxed?.dispose().catch(() => {});
      // What the run left running ends with it: the CLI after a cancel or timeout (it is given seconds to
      // exit), and the Bash tools it runs in sessions of their own, which it does not always end first.
      // Marked by the run's own config dir only: an account's shared one would match other runs. The /proc
      // scan (milliseconds, synchronous) runs a turn later, once the result is on its way.
      const ownConfigDir = `CLAUDE_CONFIG_DIR=${join(runStateDir, 'config')}`;
      setImmediate(() => killProcessesWithEnv((variable) => variable === ownConfigDir));
      await configSeed.learn(join(runStateDir, 'config'));
      await rm(runStateDir, { recursive: true, force: true }).catch(() => {});
      // Last: with removal behind, git starts once the result is on its way.
      if (worktree) await worktrees.remove(worktree.branchName);
    };

    const { prompt } = params;
    let loaded: Awaited<ReturnType<typeof loadAgentDefinition>>;
    try {
      if (resume !== undefined) {
        if (resume.session.agentSessionID === null)
          throw new Error('the session to resume has no SDK session id');
        if (resume.session.worktree !== null && !existsSync(resume.session.worktree.path)) {
          throw new Error(
            `the kept worktree of the session to resume is gone (${resume.session.worktree.path})`,
          );
        }
        worktree = resume.session.worktree;
      } else if (params.role === 'implementor') {
        worktree = await clock.time('worktree-create', () =>
          worktrees.create(buildAgentBranchName(params.branchName)),
        );
      }
      loaded = await clock.time('agent-definition', () =>
        loadAgentDefinition({
          repoRoot: config.repoRoot,
          role,
          contextPaths: config.contextPaths,
          modelOverride: config.models?.[role],
        }),
      );
      await clock.time('state-dir', () => mkdir(runStateDir, { recursive: true }));
    } catch (error) {
      await cleanUp();
      throw error;
    }

    let agentEnv: Record<string, string>;
    try {
      agentEnv = buildAgentEnv({
        baseEnv: config.baseEnv ?? process.env,
        runStateDir,
        isRoot,
        passThrough: config.passThroughEnv,
        ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
        extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
        ...(params.account !== undefined && { account: accountEnvOf(params.account) }),
      });
    } catch (error) {
      await cleanUp();
      throw error;
    }

    const executablePath = claudeExecutable();
    // What the sandbox refuses goes to the transcript (created below, before the CLI starts) and the failure.
    const sandboxRefusals = createSandboxRefusals({ note: (text) => sessionLog?.note(text) });
    if (config.sandbox?.mode === 'on') {
      try {
        if (executablePath === null) throw new Error('the claude executable was not found');
        sandboxed = await clock.time('sandbox', () =>
          config.sandbox!.wrap(
            buildAgentSandboxRequest({
              repoRoot: config.repoRoot,
              worktree: worktree?.path ?? null,
              runStateDir,
              env: agentEnv,
              network: [agentEnv.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com'],
              programs: [executablePath],
              onNetworkRefused: sandboxRefusals.onNetworkRefused,
            }),
            executablePath,
            [],
          ),
        );
      } catch (error) {
        await cleanUp();
        throw new Error(`the OS sandbox could not start: ${messageOf(error)}`);
      }
    }

    // Only the run's own config dir: one an account or the config points elsewhere (a login) is not ours.
    const configDir = join(runStateDir, 'config');
    if (agentEnv.CLAUDE_CONFIG_DIR === configDir)
      await clock.time('config-seed', () => configSeed.plant(configDir));

    // File tools stay in the worktree (planner and reviewer: read the repository); see path-guard/.
    const pathGuardHook = toSdkHook(
      createPathGuardHook({
        root: worktree?.path ?? config.repoRoot,
        writable: role === 'implementor',
        // Any other tool (an MCP server's, one a later CLI adds) is refused.
        allowedTools: AGENT_SESSION_TOOLS,
        readOnlyPaths: [...(config.readOnlyPaths ?? []), runStateDir],
        deniedPaths: [
          join(config.repoRoot, WORKTREES_DIR),
          join(config.repoRoot, '.flotilla'),
          config.stateDir,
          config.logging.logsDir,
        ],
      }),
      logger,
      'path guard',
    );
    const run = runs.begin({ sessionID, role, maxAgentDuration: config.maxAgentDuration });
    const { output } = run;
    const usageListeners = new Set<(report: LiveUsageReport) => void>();
    /** The current round's usage as the stream reports it, until its result gives the SDK's own figures. */
    let roundLiveUsage: AgentUsage | null = null;
    const sessionLog = createSessionLog?.(params) ?? null;
    if (params.account !== undefined) sessionLog?.note(`account: ${params.account}`);
    if (config.sandbox?.mode === 'off') sessionLog?.note(SANDBOX_OFF_WARNING);
    let resultMessage: SDKResultMessage | undefined;
    /** The server's retry-after of the round's last 429 the CLI retried (see read-retry-after.ts); else null. */
    let lastRetryAfterMs: number | null = null;
    let usage: AgentUsage | null = null;
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
    // The SDK aborts through its own controller; the run's signal (cancel, timeout) drives it. The round's
    // query is interrupted first: that ends the turn at once (no further model request), while an abort
    // alone leaves the CLI running, and requesting, for about two seconds (docs/claude-sdk-facts.md §Cancellation).
    let currentQuery: { interrupt(): Promise<unknown> } | null = null;
    const abortController = new AbortController();
    run.signal.addEventListener(
      'abort',
      () => {
        void currentQuery?.interrupt().catch(() => {});
        abortController.abort(run.signal.reason);
      },
      { once: true },
    );
    // The agent may ask a human through this tool too, beside `outcome: 'questions'` (see its module).
    const askHuman = createAskHumanTool();
    const definition = withAskHumanTool(loaded.definition);
    // Round 0 starts the session under the engine's id; fix rounds resume it (the CLI reloads the
    // conversation from its per-run config dir, so the session must be persisted there while validating).
    const startSession = (text: string, resume: boolean) =>
      query({
        prompt: text,
        options: {
          agent: role,
          agents: { [role]: definition },
          mcpServers: askHuman.mcpServers,
          ...(loaded.maxTurns !== undefined && { maxTurns: loaded.maxTurns }),
          cwd: worktree?.path ?? config.repoRoot,
          // The role's result, or `outcome: 'questions'` to stop and ask a human.
          outputFormat: { type: 'json_schema', schema: buildOutputOrQuestionsJsonSchema(role) },
          settingSources: [],
          // Every tool but the structured output passes the guards, in one callback (see build-claude-hooks.ts).
          hooks: buildClaudeHooks({
            bashValidator: sdkHook,
            pathGuard: pathGuardHook,
            askHumanTool: ASK_HUMAN_TOOL,
            refuseSubagentAsking: askHuman.refuseSubagents,
            stopAfterAsking: askHuman.stopAfterAsking,
          }),
          permissionMode: 'bypassPermissions',
          allowDangerouslySkipPermissions: true,
          abortController,
          ...(resume ? { resume: sdkSessionID } : { sessionId: sdkSessionID }),
          // Kept in the per-run config dir: a fix round or an answer to the agent's questions resumes it
          // (whether the agent will ask is not known up front).
          persistSession: true,
          // Stream events carry each request's final token counts (message_delta): the live usage signal.
          includePartialMessages: true,
          ...(params.maxBudgetUsd !== undefined && { maxBudgetUsd: params.maxBudgetUsd }),
          env: agentEnv,
          // Null (no platform package): the SDK looks for itself, and says what is missing.
          ...(executablePath !== null && { pathToClaudeCodeExecutable: executablePath }),
          ...(sandboxed !== null &&
            executablePath !== null && {
              spawnClaudeCodeProcess: createSandboxedSpawn(sandboxed, executablePath, (data) => {
                for (const line of data.split('\n')) sandboxRefusals.line(line);
                logger.debug('claude stderr', { sessionID, data: data.slice(0, 2000) });
              }),
            }),
          stderr: (data) => logger.debug('claude stderr', { sessionID, data: data.slice(0, 2000) }),
        },
      });

    /** One session (round): its messages go to the stream and transcript; its usage adds to the run's. */
    const consume = async (session: ReturnType<typeof query>): Promise<unknown> => {
      let first = true;
      resultMessage = undefined;
      lastRetryAfterMs = null;
      askHuman.reset();
      currentQuery = session;
      roundLiveUsage = null;
      const meter = createLiveUsageMeter();
      try {
        for await (const message of session) {
          if (first) clock.lap('spawn-to-first-message');
          first = false;
          markStarted();
          sessionLog?.record(message);
          if (message.type === 'system' && message.subtype === 'api_retry') {
            lastRetryAfterMs = readRetryAfterMs(message);
          }
          if (message.type === 'result') {
            clock.lap('first-message-to-result');
            resultMessage = message;
            usage = sumUsage(usage, readUsage(message));
            roundLiveUsage = null;
          } else {
            const live = meter.observe(message);
            if (live !== null) {
              roundLiveUsage = live.usage;
              const report = { usage: sumUsage(usage, live.usage) ?? live.usage, model: live.model };
              for (const listener of usageListeners) listener(report);
            }
          }
          for (const text of extractOutputText(message)) output.push(text);
          if (message.type === 'assistant' || message.type === 'user') run.notifyActivity();
        }
        return null;
      } catch (error) {
        // Error results are yielded first and then thrown; keep the result already received.
        return error;
      } finally {
        clock.lap('result-to-exit');
        markStarted();
      }
    };

    /** A line of Flotilla's own in the live stream and the transcript. */
    const announce = (line: string) => {
      output.push(`${line}\n`);
      sessionLog?.note(line);
      run.notifyActivity();
    };

    /** Runs the validation commands; a failure is thrown so the loop can resume the session. */
    const validate = async (round: number): Promise<void> => {
      if (validation === null || worktree === null) return;
      await runValidationRound({
        validation,
        round,
        cwd: worktree.path,
        env: buildValidationEnv(agentEnv),
        signal: run.signal,
        announce,
        notifyActivity: run.notifyActivity,
        wrap: createValidationWrapper(config.sandbox, {
          repoRoot: config.repoRoot,
          worktree: worktree.path,
          runStateDir,
        }),
      });
    };

    /** Whether the worktree and state stay after the run: it asked questions and waits for answers. */
    let keepForAnswers = false;
    /** The run's outcome when the agent asked: the session, worktree and state are kept for the resume. */
    const waitForAnswers = (questions: string[]): AgentQuestions => {
      announce(`the agent asked ${questions.length} question(s); its session waits for answers`);
      keepForAnswers = true;
      const session: KeptSession = {
        runtime: config.runtime ?? 'claude',
        agentSessionID: sdkSessionID,
        worktree,
        stateDir: runStateDir,
      };
      return { kind: 'questions', askedBy: role, questions, session };
    };
    const firstPrompt = resume === undefined ? prompt : buildAnswersPrompt(resume.questions, resume.answers);
    if (resume !== undefined) {
      announce(`session ${resume.sessionNumber}: resuming the same session with a human's answers`);
      sessionLog?.record({ type: 'user', message: { role: 'user', content: firstPrompt } });
    }
    /** "Not logged in" and the like, and rate limits: the failure the engine should see. */
    const classifyFailure = (failure: AgentRunFailure, error: unknown): AgentRunFailure => {
      if (failure.reason !== 'error') return failure;
      const credentials = classifyCredentialsFailure(role, messageOf(error));
      if (credentials !== null) return new AgentRunFailure('error', credentials, { cause: error });
      // 429/529/usage limits park the runtime or account instead of counting as a failed attempt.
      const now = Date.now();
      const limit = classifyLimitMessage(messageOf(error), {
        now,
        httpStatus: apiErrorStatusOf(resultMessage),
      });
      if (limit === null) return failure;
      // The final 429's retry-after never reaches us; the one the CLI last waited for is the best guess.
      const resetsAt =
        limit.resetsAt ??
        (limit.reason === 'rate-limit' && lastRetryAfterMs !== null ? now + lastRetryAfterMs : null);
      return new AgentRunFailure(limit.reason, messageOf(error), { cause: error, resetsAt });
    };
    const result: Promise<AgentRunOutcome> = run.settle<AgentRunOutcome>(
      async () => {
        for (let round = 0, nextPrompt = firstPrompt; ; round += 1) {
          clock.lap(round === 0 ? 'session-setup' : 'fix-round-setup');
          const failure = await consume(startSession(nextPrompt, round > 0 || resume !== undefined));
          if (run.abortReason) throw run.abortFailure(run.abortReason);
          // Asked through the tool: the hook ended the session after the call, with no structured output.
          const askedThroughTool = askHuman.asked();
          if (askedThroughTool !== null) return waitForAnswers(askedThroughTool);
          if (resultMessage?.subtype === 'error_max_budget_usd') {
            throw new AgentRunFailure(
              'budget',
              `budget: the ${role} run reached its per-run cap (${formatUSD(params.maxBudgetUsd ?? 0)}, ` +
                `spent ${formatUSD(resultMessage.total_cost_usd)})`,
            );
          }
          if (failure && !resultMessage) {
            throw new AgentRunFailure('error', `the ${role} session failed: ${messageOf(failure)}`, {
              cause: failure,
            });
          }
          try {
            const assembled = await clock.time('result-and-patch', () =>
              assembleAgentResult({
                role,
                result: resultMessage,
                extractPatch: async () => {
                  await validate(round);
                  return worktree
                    ? extractPatch({
                        worktreePath: worktree.path,
                        baseCommit: worktree.baseCommit,
                        localFiles: worktree.localFiles ?? worktrees.localFiles ?? [],
                      })
                    : '';
                },
              }),
            );
            if ('kind' in assembled) return waitForAnswers(assembled.questions);
            return assembled;
          } catch (error) {
            nextPrompt = startFixRound({
              error,
              round,
              maxRounds: validation?.maxRounds ?? 0,
              aborted: run.abortReason !== null,
              resumed: 'session',
              announce,
            });
            sessionLog?.record({ type: 'user', message: { role: 'user', content: nextPrompt } });
          }
        }
      },
      {
        sessionLog,
        cleanUp: async () => {
          if (!keepForAnswers) await clock.time('cleanup', cleanUp);
          // A kept session keeps its worktree and state, not its sandbox: the resume makes its own.
          else await sandboxed?.dispose().catch(() => {});
        },
        toFailure: (error) =>
          error instanceof AbortError
            ? new AgentRunFailure('cancelled', messageOf(error))
            : new AgentRunFailure('error', messageOf(error), { cause: error }),
        // The credentials or limit reading, with what the OS sandbox refused or reported.
        onFailure: (failure, error) => sandboxRefusals.explain(classifyFailure(failure, error)),
      },
    );

    await started;
    return {
      ...run.handle(result, {
        logFilePath: sessionLog?.filePath ?? null,
        // A session cut short (cancel, budget) has no result: what the stream reported is what it spent.
        usage: () => sumUsage(usage, roundLiveUsage),
      }),
      onUsage(listener) {
        usageListeners.add(listener);
        return () => usageListeners.delete(listener);
      },
    };
  }

  return {
    runtime: config.runtime ?? 'claude',
    isAvailable: createCachedCheck(() =>
      checkClaudeAvailability({ ...(config.baseEnv ?? process.env), ...config.extraEnv }, claudeExecutable()),
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
