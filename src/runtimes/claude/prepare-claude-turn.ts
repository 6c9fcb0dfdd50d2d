import { AbortError, type query, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { type AgentUsage, buildAnswersPrompt, formatUSD } from '../../domain/index.ts';
import {
  AgentRunFailure,
  classifyLimitMessage,
  formatIncomingQuestion,
} from '../../engine/runtime-contract/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildValidationEnv } from '../../workspace/validation/build-validation-env.ts';
import type { AgentTurn, TurnRun, TurnSetup } from '../shared/agent-turn.ts';
import { createReadOnlyWorktreeCheck } from '../shared/settle-agent-output.ts';
import { assembleAgentResult, readUsage } from './assemble-agent-result.ts';
import { classifyCredentialsFailure } from './classify-credentials-failure.ts';
import { createAskHumanTool } from './create-ask-human-tool.ts';
import { createClaudeSessionStarter } from './create-claude-session-starter.ts';
import { ANSWER_AGENT_TOOL, createConversationTools } from './create-conversation-tools.ts';
import { createLiveUsageMeter } from './create-live-usage-meter.ts';
import { createNoteTools } from './create-note-tools.ts';
import { createSessionInput, type SessionInput } from './create-session-input.ts';
import { extractOutputText } from './extract-output-text.ts';
import { type ClaudeTurnContext, provisionClaudeRun } from './provision-claude-run.ts';
import { readRetryAfterMs } from './read-retry-after.ts';
import { sumUsage } from './sum-usage.ts';

/**
 * The HTTP status of the API error that ended the session (the CLI reports it after its own retries), null
 * when the result says none did, undefined when there is no result to tell (the text is judged instead).
 */
function apiErrorStatusOf(result: SDKResultMessage | undefined): number | null | undefined {
  if (result === undefined) return undefined;
  return 'api_error_status' in result ? (result.api_error_status ?? null) : null;
}

/** Whether a result carries the role's structured output. */
function hasOutput(result: SDKResultMessage | undefined): boolean {
  return result !== undefined && 'structured_output' in result && result.structured_output !== undefined;
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
  const provisioned = await provisionClaudeRun(context, setup);
  const { agentEnv } = provisioned;
  // A read-only mode's worktree must be as it was when its agent started (issue #29).
  const readOnlyCheck =
    provisioned.mode !== undefined ? createReadOnlyWorktreeCheck(setup.cwd, provisioned.mode) : undefined;
  await readOnlyCheck?.snapshot();
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
  // Flotilla's note tools (store_memory, …) on the same in-process server: each call is recorded for the engine.
  // And the conversation tools (ask_agent, answer_agent, check_messages; issue #28 §3).
  const askHuman = createAskHumanTool([
    ...createNoteTools((tool, input) => setup.notes.record(tool, input)),
    ...createConversationTools(setup.conversations),
  ]);
  // Another agent's question goes into the live session as a user message (streaming input); one that
  // comes between rounds waits for the next round's start, and check_messages lists it meanwhile too.
  let currentInput: SessionInput | null = null;
  let currentRun: TurnRun | null = null;
  const pushed = new Set<string>();
  const pushPending = () => {
    for (const question of setup.conversations.pending()) {
      if (pushed.has(question.conversationID) || currentInput === null) continue;
      const text = formatIncomingQuestion(question, ANSWER_AGENT_TOOL);
      if (!currentInput.push(text)) return;
      pushed.add(question.conversationID);
      currentRun?.sessionLog?.record({ type: 'user', message: { role: 'user', content: text } });
      currentRun?.notifyActivity();
    }
  };
  setup.onRelease(setup.conversations.onChange(pushPending));
  const startSession = createClaudeSessionStarter({
    role,
    sessionID,
    sdkSessionID,
    cwd: setup.cwd,
    maxBudgetUsd: params.maxBudgetUsd,
    limits: params.limits,
    provisioned,
    askHuman,
    abortController,
    refusals: setup.refusals,
    logger,
  });

  /** One session (round): its messages go to the stream and transcript; its usage adds to the run's. */
  const consume = async (run: TurnRun, session: ReturnType<typeof query>): Promise<unknown> => {
    let first = true;
    resultMessage = undefined;
    /** The run's usage before this round: a round's results report its query's totals so far. */
    const usageBefore = usage;
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
          // The round is over: its input ends, so the query does. A question pushed at the very end can
          // still make the CLI play one more turn; the result with the role's output is the one kept.
          currentInput?.end();
          if (!hasOutput(resultMessage) || hasOutput(message)) resultMessage = message;
          usage = sumUsage(usageBefore, readUsage(message));
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
      const input = createSessionInput(prompt);
      currentInput = input;
      currentRun = run;
      pushPending();
      return consume(run, startSession(input, round > 0 || resume !== undefined)).finally(() => {
        input.end();
      });
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
        ...(provisioned.mode !== undefined && { mode: provisioned.mode }),
        result: resultMessage,
        extractPatch: () => run.patch(round),
      });
      await readOnlyCheck?.verify();
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
