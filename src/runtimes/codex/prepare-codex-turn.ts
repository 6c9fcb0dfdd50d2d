import { join } from 'node:path';
import type { ThreadEvent, Usage } from '@openai/codex-sdk';
import { type AgentUsage, buildAnswersPrompt, CREDENTIALS_FAILURE_PREFIX } from '../../domain/index.ts';
import { AgentRunFailure, classifyLimitMessage } from '../../engine/runtime-contract/index.ts';
import { findOnPath } from '../../sandbox/find-on-path.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { AgentTurn, RoundEnd, TurnRun, TurnSetup } from '../shared/agent-turn.ts';
import { createLogLineReader } from '../shared/create-log-line-reader.ts';
import { createReadOnlyWorktreeCheck, settleAgentOutput } from '../shared/settle-agent-output.ts';
import { buildCodexValidationEnv } from './build-codex-env.ts';
import { buildCodexOutputSchema } from './build-codex-output-schema.ts';
import { type CodexUsageTail, createCodexUsageTail } from './create-codex-usage-tail.ts';
import { mapCodexEvent } from './map-codex-event.ts';
import { type CodexRun, type CodexRunContext, provisionCodexRun } from './provision-codex-run.ts';
import { readCodexUsage, subtractCodexUsage } from './read-codex-usage.ts';
import { findCodexSandboxProblem, readStderrTail } from './write-codex-launcher.ts';

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
 * The run's usage: per turn from `turn.completed`, and live after every model response from the thread's
 * rollout (the engine's budgets). A resumed thread's figures count only this run's turns.
 */
function createCodexUsage(context: CodexRunContext, codexRun: CodexRun, setup: TurnSetup) {
  const { config } = context;
  const { model, priorThreadUsage } = codexRun;
  let turns = 0;
  let usage: AgentUsage | null = null;
  let liveUsage: AgentUsage | null = null;
  let rolloutModel: string | null = null;
  /** The thread's cumulative usage as codex last reported it. */
  let threadUsage: Usage | null = null;
  const price = (thread: Usage, turnsSoFar: number) =>
    readCodexUsage({
      // A resumed thread's rollout and turns count the asking run's tokens again: only this run's are its.
      usage: subtractCodexUsage(thread, priorThreadUsage),
      turns: turnsSoFar,
      model: model ?? rolloutModel ?? undefined,
      ...(config.prices && { prices: config.prices }),
    });
  const reportLive = (thread: Usage, turnsSoFar: number) => {
    const priced = price(thread, turnsSoFar);
    if (priced === null || tokensOf(priced) <= tokensOf(liveUsage)) return;
    liveUsage = priced;
    setup.reportUsage({ usage: priced, model: model ?? rolloutModel });
  };
  const tail: CodexUsageTail = createCodexUsageTail({
    sessionsDir: join(codexRun.codexHome, 'sessions'),
    onUsage: (thread, seenModel) => {
      rolloutModel = seenModel ?? rolloutModel;
      reportLive(thread, turns + 1);
    },
  });
  // Stopped before the rollout it follows is removed; also when a run keeps its thread.
  setup.onRelease(() => tail.close());
  return {
    tail,
    /** A turn completed: codex's own figures for the thread so far. */
    turnCompleted(thread: Usage): AgentUsage | null {
      threadUsage = thread;
      turns += 1;
      usage = price(thread, turns);
      reportLive(thread, turns);
      return usage;
    },
    turns: () => turns,
    threadUsage: () => threadUsage,
    // A run stopped mid-turn (cancel, budget) has no turn.completed: the rollout's figures are its spend.
    current: () => (tokensOf(liveUsage) > tokensOf(usage) ? liveUsage : usage),
  };
}

/**
 * One run's turn on codex: each round is a turn of the thread (round 0 its first, or the resumed one's
 * next), its events mapped to the live stream and transcript; the final message is the role's result.
 */
export async function prepareCodexTurn(
  context: CodexRunContext,
  setup: TurnSetup,
): Promise<AgentTurn<TurnOutcome>> {
  const { homes } = context;
  const { params, role } = setup;
  const codexRun = await provisionCodexRun(context, setup);
  const outputSchema = buildCodexOutputSchema(role, codexRun.mode);
  // A read-only mode's worktree must be as it was when its agent started (issue #29).
  const readOnlyCheck =
    codexRun.mode !== undefined ? createReadOnlyWorktreeCheck(setup.cwd, codexRun.mode) : undefined;
  await readOnlyCheck?.snapshot();
  const { model, thread: codexThread } = codexRun;
  const usage = createCodexUsage(context, codexRun, setup);
  // bwrap's and the forwarder's own lines in codex's stderr: to the transcript and the failure reason.
  const stderrLines = createLogLineReader(codexRun.stderrLog);

  const handleEvent = (run: TurnRun, event: ThreadEvent, turn: TurnOutcome) => {
    const { sessionLog } = run;
    switch (event.type) {
      case 'thread.started':
        usage.tail.follow(event.thread_id);
        sessionLog?.record({
          type: 'system',
          subtype: 'init',
          model: model ?? 'codex default',
          cwd: run.cwd,
          tools: [],
        });
        break;
      case 'item.completed':
        if (event.item.type === 'agent_message') turn.finalMessage = event.item.text;
        break;
      case 'turn.completed': {
        const turnUsage = usage.turnCompleted(event.usage);
        sessionLog?.record({
          type: 'result',
          subtype: 'success',
          num_turns: usage.turns(),
          total_cost_usd: turnUsage?.costUSD ?? undefined,
          usage: { input_tokens: event.usage.input_tokens, output_tokens: event.usage.output_tokens },
        });
        break;
      }
      case 'turn.failed':
        turn.failure = event.error.message;
        sessionLog?.record({ type: 'result', subtype: 'error', is_error: true, result: event.error.message });
        break;
      case 'error':
        turn.failure ??= event.message;
        break;
    }
    const mapped = mapCodexEvent(event);
    for (const message of mapped.logMessages) sessionLog?.record(message);
    for (const text of mapped.texts) run.output(text);
    if (mapped.notice !== undefined) sessionLog?.note(mapped.notice);
    if (mapped.activity) run.notifyActivity();
  };

  /** One turn (the first prompt, or a fix round resuming the thread). */
  const runTurn = async (run: TurnRun, prompt: string): Promise<TurnOutcome> => {
    const turn: TurnOutcome = { finalMessage: null, failure: null, thrown: undefined };
    let first = true;
    try {
      const { events } = await codexThread.runStreamed(prompt, { outputSchema, signal: run.signal });
      for await (const event of events) {
        if (first) run.clock.lap('spawn-to-first-message');
        first = false;
        run.markStarted();
        handleEvent(run, event, turn);
        if (event.type === 'turn.completed' || event.type === 'turn.failed')
          run.clock.lap('first-message-to-result');
      }
    } catch (error) {
      turn.thrown = error;
      turn.failure ??= messageOf(error);
    } finally {
      run.clock.lap('result-to-exit');
      run.markStarted();
    }
    for (const line of await stderrLines.readNew()) setup.refusals.line(line);
    // A sandbox that could not run codex's commands is the run's failure, never "changed nothing". In
    // Flotilla's sandbox codex's own does not run (a `bwrap:` line there is Flotilla's, the refusals above),
    // but for a read-only mode, whose commands run in codex's `read-only` sandbox inside ours.
    const sandboxProblem =
      codexRun.sandboxed && codexRun.mode === undefined
        ? null
        : await findCodexSandboxProblem(codexRun.stderrLog, {
            ownSandboxWithSystemBwrap: findOnPath('bwrap', codexRun.env.PATH ?? '') !== undefined,
          });
    if (sandboxProblem !== null) {
      run.sessionLog?.note(`codex's sandbox failed: ${sandboxProblem}`);
      turn.failure = `codex's sandbox could not run commands: ${sandboxProblem}`;
    } else if (turn.thrown !== undefined) {
      // codex's stderr goes to the run's log (the launcher), not into the SDK's error: quote its end.
      const tail = await readStderrTail(codexRun.stderrLog);
      if (tail !== '') turn.failure = `${turn.failure ?? 'codex failed'} ${tail}`;
    }
    return turn;
  };

  /**
   * The final message → the role's validated result (the implementor's patch for `completed`), or the
   * agent's questions for a human: then the worktree and the thread's rollout are kept for the resume.
   */
  const assemble = async (run: TurnRun, turn: TurnOutcome, round: number): Promise<RoundEnd> => {
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
    return settleAgentOutput({
      params,
      output: parsed,
      patch: () => run.patch(round),
      readOnlyCheck,
    });
  };

  /** Credentials and limits: the failure the engine should see. */
  const classifyFailure = (failure: AgentRunFailure, error: unknown): AgentRunFailure => {
    if (failure.reason !== 'error') return failure;
    if (AUTHENTICATION_ERRORS.test(failure.message)) {
      return new AgentRunFailure(
        'error',
        `${CREDENTIALS_FAILURE_PREFIX} the ${role} could not authenticate with the model API (${failure.message}). ` +
          `Set ${context.modelKeyVariables.join(' or ')} for \`flotilla run\`. Not retried: every attempt would fail alike.`,
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

  return {
    validationEnv: buildCodexValidationEnv(codexRun.env, [...context.modelKeyVariables]),
    firstPrompt(run) {
      const { resume } = params;
      if (resume === undefined) return params.prompt;
      const answers = buildAnswersPrompt(resume.questions, resume.answers);
      run.announce(`session ${resume.sessionNumber}: resuming the same codex thread with a human's answers`);
      run.sessionLog?.record({ type: 'user', message: { role: 'user', content: answers } });
      return answers;
    },
    play: (run, prompt) => runTurn(run, prompt),
    async settle(run, turn, round) {
      if (turn.failure !== null) {
        throw new AgentRunFailure('error', `the ${role} session failed: ${turn.failure}`, {
          cause: turn.thrown,
        });
      }
      return assemble(run, turn, round);
    },
    usage: usage.current,
    async keep() {
      const threadUsage = usage.threadUsage();
      if (codexThread.id !== null && threadUsage !== null)
        await homes.saveThreadUsage(codexRun.codexStateDir, threadUsage);
      // The run's codex state, its CODEX_HOME inside: the resume continues there, discardSession removes it.
      return { agentSessionID: codexThread.id, stateDir: codexRun.codexStateDir };
    },
    onFailure: (failure, error) => setup.refusals.explain(classifyFailure(failure, error)),
  };
}
