import { join } from 'node:path';
import { AbortError, query, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { type AgentUsage, buildAnswersPrompt, formatUSD } from '../../domain/index.ts';
import {
  AgentRunFailure,
  buildOutputOrQuestionsJsonSchema,
  classifyLimitMessage,
} from '../../engine/runtime-contract/index.ts';
import { type AgentEnvAccount, buildAgentEnv } from '../../guards/agent-env/build-agent-env.ts';
import { AGENT_SESSION_TOOLS, createPathGuardHook } from '../../guards/path-guard/index.ts';
import { killProcessesWithEnv } from '../../process/kill-processes-with-env.ts';
import type { SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import { WORKTREES_DIR } from '../../workspace/create-worktree-manager.ts';
import { buildValidationEnv } from '../../workspace/validation/build-validation-env.ts';
import type { AgentTurn, TurnRun, TurnSetup } from '../shared/agent-turn.ts';
import { buildAgentSandboxRequest } from '../shared/build-agent-sandbox-request.ts';
import type { ClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { assembleAgentResult, readUsage } from './assemble-agent-result.ts';
import { buildClaudeHooks } from './build-claude-hooks.ts';
import { classifyCredentialsFailure } from './classify-credentials-failure.ts';
import type { ClaudeAdapterConfig } from './claude-adapter-config.ts';
import { ASK_HUMAN_TOOL, createAskHumanTool, withAskHumanTool } from './create-ask-human-tool.ts';
import { createLiveUsageMeter } from './create-live-usage-meter.ts';
import { createSandboxedSpawn } from './create-sandboxed-spawn.ts';
import { extractOutputText } from './extract-output-text.ts';
import { loadAgentDefinition } from './load-agent-definition.ts';
import { readRetryAfterMs } from './read-retry-after.ts';
import { sumUsage } from './sum-usage.ts';
import { toSdkHook } from './to-sdk-hook.ts';

/** What the adapter shares between its runs. */
export interface ClaudeTurnContext {
  config: ClaudeAdapterConfig;
  /** The bash validator as an SDK hook. */
  bashHook: ReturnType<typeof toSdkHook>;
  configSeed: ClaudeConfigSeed;
  /** The claude CLI binary; null: the SDK looks for itself. */
  claudeExecutable(): string | null;
  isRoot: boolean;
  accountEnvOf(name: string): AgentEnvAccount;
}

/**
 * The HTTP status of the API error that ended the session (the CLI reports it after its own retries), null
 * when the result says none did, undefined when there is no result to tell (the text is judged instead).
 */
function apiErrorStatusOf(result: SDKResultMessage | undefined): number | null | undefined {
  if (result === undefined) return undefined;
  return 'api_error_status' in result ? (result.api_error_status ?? null) : null;
}

/** The run's environment, sandbox and config dir: what the SDK session is started with. */
async function provisionClaudeRun(context: ClaudeTurnContext, setup: TurnSetup) {
  const { config } = context;
  const { params, role, clock, worktree, runDir: runStateDir } = setup;
  let sandboxed: SandboxedCommand | null = null;
  setup.onRelease(async (kept) => {
    await sandboxed?.dispose().catch(() => {});
    // A kept session keeps its state for the resume (not its sandbox: the resume makes its own).
    if (kept) return;
    // What the run left running ends with it: the CLI after a cancel or timeout (it is given seconds to
    // exit), and the Bash tools it runs in sessions of their own, which it does not always end first.
    // Marked by the run's own config dir only: an account's shared one would match other runs. The /proc
    // scan (milliseconds, synchronous) runs a turn later, once the result is on its way.
    const ownConfigDir = `CLAUDE_CONFIG_DIR=${join(runStateDir, 'config')}`;
    setImmediate(() => killProcessesWithEnv((variable) => variable === ownConfigDir));
    await context.configSeed.learn(join(runStateDir, 'config'));
  });
  const loaded = await clock.time('agent-definition', () =>
    loadAgentDefinition({
      repoRoot: config.repoRoot,
      role,
      contextPaths: config.contextPaths,
      modelOverride: config.models?.[role],
    }),
  );
  await setup.makeRunDir();
  const agentEnv = buildAgentEnv({
    baseEnv: config.baseEnv ?? process.env,
    runStateDir,
    isRoot: context.isRoot,
    passThrough: config.passThroughEnv,
    ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
    extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
    ...(params.account !== undefined && { account: context.accountEnvOf(params.account) }),
  });
  const executablePath = context.claudeExecutable();
  if (config.sandbox?.mode === 'on') {
    const sandbox = config.sandbox;
    try {
      if (executablePath === null) throw new Error('the claude executable was not found');
      sandboxed = await clock.time('sandbox', () =>
        sandbox.wrap(
          buildAgentSandboxRequest({
            repoRoot: config.repoRoot,
            worktree: worktree?.path ?? null,
            runStateDir,
            env: agentEnv,
            network: [agentEnv.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com'],
            programs: [executablePath],
            onNetworkRefused: setup.refusals.onNetworkRefused,
          }),
          executablePath,
          [],
        ),
      );
    } catch (error) {
      throw new Error(`the OS sandbox could not start: ${messageOf(error)}`);
    }
  }
  // Only the run's own config dir: one an account or the config points elsewhere (a login) is not ours.
  const configDir = join(runStateDir, 'config');
  if (agentEnv.CLAUDE_CONFIG_DIR === configDir)
    await clock.time('config-seed', () => context.configSeed.plant(configDir));
  // File tools stay in the worktree (planner and reviewer: read the repository); see path-guard/.
  const pathGuardHook = toSdkHook(
    createPathGuardHook({
      root: setup.cwd,
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
    config.logger,
    'path guard',
  );
  return { loaded, agentEnv, executablePath, sandboxed, pathGuardHook };
}

/**
 * One run's turn on the Claude Agent SDK: round 0 starts the session under the engine's id (a resume
 * continues the asking one), fix rounds resume it; the result message becomes the role's result.
 */
export async function prepareClaudeTurn(
  context: ClaudeTurnContext,
  setup: TurnSetup,
): Promise<AgentTurn<unknown>> {
  const { config } = context;
  const { logger } = config;
  const { params, sessionID, role } = setup;
  const { resume } = params;
  const { loaded, agentEnv, executablePath, sandboxed, pathGuardHook } = await provisionClaudeRun(
    context,
    setup,
  );
  /** The SDK session: the engine's id for a new run, the asking run's for a resume. */
  const sdkSessionID = resume?.session.agentSessionID ?? sessionID;
  let resultMessage: SDKResultMessage | undefined;
  /** The server's retry-after of the round's last 429 the CLI retried (see read-retry-after.ts); else null. */
  let lastRetryAfterMs: number | null = null;
  let usage: AgentUsage | null = null;
  /** The current round's usage as the stream reports it, until its result gives the SDK's own figures. */
  let roundLiveUsage: AgentUsage | null = null;
  // The SDK aborts through its own controller; the run's signal (cancel, timeout) drives it. The round's
  // query is interrupted first: that ends the turn at once (no further model request), while an abort
  // alone leaves the CLI running, and requesting, for about two seconds (docs/claude-sdk-facts.md §Cancellation).
  let currentQuery: { interrupt(): Promise<unknown> } | null = null;
  const abortController = new AbortController();
  let linked = false;
  const linkAbort = (run: TurnRun) => {
    if (linked) return;
    linked = true;
    const abort = () => {
      void currentQuery?.interrupt().catch(() => {});
      abortController.abort(run.signal.reason);
    };
    if (run.signal.aborted) abort();
    else run.signal.addEventListener('abort', abort, { once: true });
  };
  // The agent may ask a human through this tool too, beside `outcome: 'questions'` (see its module).
  const askHuman = createAskHumanTool();
  const definition = withAskHumanTool(loaded.definition);
  const stderr = (data: string) => logger.debug('claude stderr', { sessionID, data: data.slice(0, 2000) });
  // Round 0 starts the session under the engine's id; fix rounds resume it (the CLI reloads the
  // conversation from its per-run config dir, so the session must be persisted there while validating).
  const startSession = (text: string, resumes: boolean) =>
    query({
      prompt: text,
      options: {
        agent: role,
        agents: { [role]: definition },
        mcpServers: askHuman.mcpServers,
        ...(loaded.maxTurns !== undefined && { maxTurns: loaded.maxTurns }),
        cwd: setup.cwd,
        // The role's result, or `outcome: 'questions'` to stop and ask a human.
        outputFormat: { type: 'json_schema', schema: buildOutputOrQuestionsJsonSchema(role) },
        settingSources: [],
        // Every tool but the structured output passes the guards, in one callback (see build-claude-hooks.ts).
        hooks: buildClaudeHooks({
          bashValidator: context.bashHook,
          pathGuard: pathGuardHook,
          askHumanTool: ASK_HUMAN_TOOL,
          refuseSubagentAsking: askHuman.refuseSubagents,
          stopAfterAsking: askHuman.stopAfterAsking,
        }),
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        abortController,
        ...(resumes ? { resume: sdkSessionID } : { sessionId: sdkSessionID }),
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
              for (const line of data.split('\n')) setup.refusals.line(line);
              stderr(data);
            }),
          }),
        stderr,
      },
    });

  /** One session (round): its messages go to the stream and transcript; its usage adds to the run's. */
  const consume = async (run: TurnRun, session: ReturnType<typeof query>): Promise<unknown> => {
    let first = true;
    resultMessage = undefined;
    lastRetryAfterMs = null;
    askHuman.reset();
    currentQuery = session;
    roundLiveUsage = null;
    const meter = createLiveUsageMeter();
    try {
      for await (const message of session) {
        if (first) run.clock.lap('spawn-to-first-message');
        first = false;
        run.markStarted();
        run.sessionLog?.record(message);
        if (message.type === 'system' && message.subtype === 'api_retry') {
          lastRetryAfterMs = readRetryAfterMs(message);
        }
        if (message.type === 'result') {
          run.clock.lap('first-message-to-result');
          resultMessage = message;
          usage = sumUsage(usage, readUsage(message));
          roundLiveUsage = null;
        } else {
          const live = meter.observe(message);
          if (live !== null) {
            roundLiveUsage = live.usage;
            run.reportUsage({ usage: sumUsage(usage, live.usage) ?? live.usage, model: live.model });
          }
        }
        for (const text of extractOutputText(message)) run.output(text);
        if (message.type === 'assistant' || message.type === 'user') run.notifyActivity();
      }
      return null;
    } catch (error) {
      // Error results are yielded first and then thrown; keep the result already received.
      return error;
    } finally {
      run.clock.lap('result-to-exit');
      run.markStarted();
    }
  };

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

  return {
    ...(params.account !== undefined && { transcriptNotes: [`account: ${params.account}`] }),
    validationEnv: buildValidationEnv(agentEnv),
    firstPrompt(run) {
      if (resume === undefined) return params.prompt;
      const answers = buildAnswersPrompt(resume.questions, resume.answers);
      run.announce(`session ${resume.sessionNumber}: resuming the same session with a human's answers`);
      run.sessionLog?.record({ type: 'user', message: { role: 'user', content: answers } });
      return answers;
    },
    play(run, prompt, round) {
      linkAbort(run);
      return consume(run, startSession(prompt, round > 0 || resume !== undefined));
    },
    async settle(run, failure, round) {
      // Asked through the tool: the hook ended the session after the call, with no structured output.
      const askedThroughTool = askHuman.asked();
      if (askedThroughTool !== null) return { kind: 'questions', questions: askedThroughTool };
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
      const assembled = await assembleAgentResult({
        role,
        result: resultMessage,
        extractPatch: () => run.patch(round),
      });
      if ('kind' in assembled) return { kind: 'questions', questions: assembled.questions };
      return { kind: 'result', result: assembled };
    },
    // A session cut short (cancel, budget) has no result: what the stream reported is what it spent.
    usage: () => sumUsage(usage, roundLiveUsage),
    keep: async (run) => ({ agentSessionID: sdkSessionID, stateDir: run.runDir }),
    toFailure: (error) =>
      error instanceof AbortError
        ? new AgentRunFailure('cancelled', messageOf(error))
        : new AgentRunFailure('error', messageOf(error), { cause: error }),
    // The credentials or limit reading, with what the OS sandbox refused or reported.
    onFailure: (failure, error) => setup.refusals.explain(classifyFailure(failure, error)),
  };
}
