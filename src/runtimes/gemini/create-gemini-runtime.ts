import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentResult,
  type AgentRole,
  type AgentRunOutcome,
  type AgentUsage,
  buildAnswersPrompt,
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
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
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
import { findModelEndpoints } from '../shared/find-model-endpoints.ts';
import {
  runValidationRound,
  startFixRound,
  type ValidationSettings,
} from '../shared/run-validation-round.ts';
import { buildGeminiCommand } from './build-gemini-command.ts';
import { buildGeminiEnv, buildGeminiValidationEnv } from './build-gemini-env.ts';
import { buildGeminiPrompt, parseFinalMessage } from './build-gemini-prompt.ts';
import { buildGeminiSettings } from './build-gemini-settings.ts';
import { checkGeminiAvailability } from './check-gemini-availability.ts';
import { findGeminiBinary } from './find-gemini-binary.ts';
import { type GeminiModelPrice, priceGeminiTokens } from './gemini-prices.ts';
import { mapGeminiEvent } from './map-gemini-event.ts';
import { runGeminiProcess } from './run-gemini-process.ts';

export interface GeminiRuntimeConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for implementor worktrees (e.g. 'main'). */
  defaultBranch: string;
  logger: Logger;
  /** Each run's directory (its HOME, prompt-free state, the sandbox's git dir) is `<stateDir>/runs/<id>`. */
  stateDir: string;
  /** Files (relative to repoRoot) appended to every role's instructions, read fresh per run. */
  contextPaths?: readonly string[];
  /** Model per role; unset: `model`, else gemini-cli's default. */
  models?: Partial<Record<AgentRole, string>>;
  model?: string;
  /** Price table for cost (default: gemini-prices.ts). */
  prices?: Readonly<Record<string, GeminiModelPrice>>;
  /** Setup command in implementor worktrees; unset = detect from the lockfile; 'none' = no setup. */
  setupCommand?: string | null;
  /** The repository's shared worktree manager; default: one of its own. */
  worktrees?: WorktreeManager;
  /** The environment gemini starts from (default process.env), before the allow-list. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Added to gemini's environment last (the scripted server's endpoint, tests' tripwires). */
  extraEnv?: Readonly<Record<string, string>>;
  /** Variables gemini may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
  /**
   * The OS sandbox gemini (and every command it runs) starts in (src/sandbox/); 'off' runs it unsandboxed
   * with a warning in every transcript. Absent: unsandboxed (the control plane always gives one).
   */
  sandbox?: Sandbox;
  /** In-session validation of the implementor's work, as in the other runtimes. */
  validation?: ValidationSettings;
  /** Session transcript writer; default: session-log/ when `logging.agentSessions` is on. */
  createSessionLog?: (params: AgentStartParams) => SessionLog;
  /** The name runs are recorded under (default `gemini`; `scripted` against the scripted model server). */
  runtime?: string;
  /** gemini-cli's bundle (default: the installed `@google/gemini-cli`). */
  binary?: string;
}

/** What one gemini-cli process (a turn) left the run. */
interface Turn {
  /** The assistant's text after its last tool call: the result's JSON. */
  finalText: string;
  /** Why the turn failed (the `result` event's error, an exit without one, a killed process); null: fine. */
  failure: string | null;
}

/** How much of gemini's stderr a failure quotes. */
const STDERR_TAIL_LINES = 5;

/**
 * The Gemini CLI runtime (issue 27): each run drives the real gemini-cli (`@google/gemini-cli`) headless
 * (`--output-format stream-json`), inside the OS sandbox, with a scrubbed environment and a HOME of the run's
 * own; the implementor works in a worktree of its own (`yolo`: every tool approved, the sandbox is the
 * boundary), planner and reviewer read the repository (`plan`: read-only tools). The final message is the
 * role's result, validated as untrusted input; a fix round or a human's answers resume the same gemini session.
 */
export function createGeminiRuntime(
  config: GeminiRuntimeConfig,
): RuntimeAdapter & { readonly runtime: string; discardSession(session: KeptSession): Promise<void> } {
  const { logger } = config;
  const runtimeName = config.runtime ?? 'gemini';
  const runs = createRunRegistry();
  const worktrees = createRuntimeWorktrees(config);
  const createSessionLog =
    config.createSessionLog ??
    (config.logging.agentSessions
      ? createSessionLogFactory({ logsDir: config.logging.logsDir, enabled: true, logger })
      : null);

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
    const model = config.models?.[role] ?? config.model;
    const binary = config.binary ?? findGeminiBinary();
    // A resumed run continues in the kept worktree and home (gemini's session file is there).
    const runDir = resume?.session.stateDir ?? join(config.stateDir, 'runs', sessionID);
    const home = join(runDir, 'home');
    let worktree: Worktree | null = null;
    let keepForAnswers = false;
    const cleanUp = async () => {
      if (keepForAnswers) return;
      await rm(runDir, { recursive: true, force: true }).catch(() => {});
      // Last: with removal behind, git starts once the result is on its way.
      if (worktree) await worktrees.remove(worktree.branchName);
    };
    let firstPrompt: string;
    try {
      if (binary === undefined) throw new Error('gemini-cli is not installed (@google/gemini-cli)');
      if (resume !== undefined) {
        worktree = checkKeptSession(resume.session, runtimeName);
        firstPrompt = buildAnswersPrompt(resume.questions, resume.answers);
      } else {
        if (params.role === 'implementor')
          worktree = await clock.time('worktree-create', () =>
            worktrees.create(`agent/${params.branchName}`),
          );
        firstPrompt = buildGeminiPrompt({
          prompt: params.prompt,
          role,
          contextFiles: await readContextFiles(),
        });
        await mkdir(join(home, '.gemini'), { recursive: true, mode: 0o700 });
        await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(buildGeminiSettings()));
      }
    } catch (error) {
      await cleanUp();
      throw error;
    }
    const geminiBinary: string = binary;
    const cwd = worktree?.path ?? config.repoRoot;
    const env = buildGeminiEnv({
      baseEnv: config.baseEnv ?? process.env,
      home,
      ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
      extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
    });
    const run = runs.begin({ sessionID, role, maxAgentDuration: config.maxAgentDuration });
    const { output, notifyActivity } = run;
    const sessionLog = createSessionLog?.(params) ?? null;
    if (config.sandbox?.mode === 'off') sessionLog?.note(SANDBOX_OFF_WARNING);
    const sandboxRefusals = createSandboxRefusals({ note: (text) => sessionLog?.note(text) });
    const announce = (line: string) => {
      output.push(`${line}\n`);
      sessionLog?.note(line);
      notifyActivity();
    };
    if (worktree !== null && resume === undefined) worktrees.prepareSpare();

    let geminiSessionId = resume?.session.agentSessionID ?? null;
    let seenModel = model ?? null;
    const totals = { input: 0, output: 0, cached: 0, cost: 0 as number | null, turns: 0 };
    const usage = (): AgentUsage | null =>
      totals.turns === 0
        ? null
        : {
            inputTokens: totals.input,
            outputTokens: totals.output,
            costUSD: totals.cost,
            turns: totals.turns,
          };
    const usageListeners = new Set<(report: LiveUsageReport) => void>();

    /** One gemini-cli process: the prompt in, stream-json events out. */
    const runTurn = async (prompt: string): Promise<Turn> => {
      const turn: Turn = { finalText: '', failure: null };
      let text = '';
      const stderr: string[] = [];
      /** The text so far, whole in the transcript (a secret split across deltas is still redacted). */
      const flushText = () => {
        if (text === '') return;
        if (text.trim() !== '')
          sessionLog?.record({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
        turn.finalText = text;
        text = '';
      };
      const onLine = (stream: 'stdout' | 'stderr', line: string) => {
        if (stream === 'stderr') {
          sandboxRefusals.line(line);
          stderr.push(line);
          if (stderr.length > STDERR_TAIL_LINES) stderr.shift();
          sessionLog?.note(`[stderr] ${line}`);
          return;
        }
        const event = mapGeminiEvent(line);
        switch (event.kind) {
          case 'init':
            geminiSessionId = event.sessionId || geminiSessionId;
            seenModel = event.model || seenModel;
            sessionLog?.record({ type: 'system', subtype: 'init', model: seenModel ?? '', cwd, tools: [] });
            return;
          case 'text':
            text += event.text;
            output.push(event.text);
            return;
          case 'tool-call':
            flushText();
            turn.finalText = '';
            output.push(`\n→ ${event.name} ${JSON.stringify(event.input)}\n`);
            sessionLog?.record({
              type: 'assistant',
              message: {
                content: [{ type: 'tool_use', id: event.id, name: event.name, input: event.input }],
              },
            });
            notifyActivity();
            return;
          case 'tool-result':
            sessionLog?.record({
              type: 'user',
              message: {
                content: [
                  { type: 'tool_result', tool_use_id: event.id, content: event.output, is_error: !event.ok },
                ],
              },
            });
            notifyActivity();
            return;
          case 'result': {
            flushText();
            const { inputTokens, outputTokens, cachedTokens } = event.usage;
            totals.input += inputTokens;
            totals.output += outputTokens;
            totals.cached += cachedTokens;
            totals.turns += 1;
            const cost = priceGeminiTokens(
              seenModel ?? '',
              { input: inputTokens, output: outputTokens, cached: cachedTokens },
              config.prices,
            );
            totals.cost = cost === null || totals.cost === null ? null : totals.cost + cost;
            sessionLog?.record({
              type: 'result',
              subtype: event.ok ? 'success' : 'error',
              num_turns: totals.turns,
              total_cost_usd: totals.cost ?? undefined,
              usage: { input_tokens: inputTokens, output_tokens: outputTokens },
            });
            const now = usage();
            if (now !== null)
              for (const listener of usageListeners) listener({ usage: now, model: seenModel });
            if (!event.ok) turn.failure = event.error ?? 'gemini reported an error';
            return;
          }
          case 'other':
            return;
        }
      };
      const argv = buildGeminiCommand({
        node: process.execPath,
        binary: geminiBinary,
        prompt,
        model,
        approvalMode: role === 'implementor' ? 'yolo' : 'plan',
        resume: geminiSessionId ?? undefined,
      });
      const [file = process.execPath, ...args] = argv;
      sessionLog?.record({ type: 'user', message: { role: 'user', content: prompt } });
      let command = { file, args, env, dispose: async () => {} };
      if (config.sandbox?.mode === 'on') {
        try {
          command = await config.sandbox.wrap(
            buildAgentSandboxRequest({
              repoRoot: config.repoRoot,
              worktree: worktree?.path ?? null,
              runStateDir: runDir,
              env,
              network: findModelEndpoints(env),
              programs: [process.execPath, geminiBinary],
              onNetworkRefused: (target) => {
                sandboxRefusals.onNetworkRefused(target);
                notifyActivity();
              },
            }),
            file,
            args,
          );
        } catch (error) {
          throw new AgentRunFailure('error', `the OS sandbox could not start: ${messageOf(error)}`);
        }
      }
      clock.lap('session-setup');
      const outcome = await runGeminiProcess({
        file: command.file,
        args: command.args,
        cwd,
        env: command.env,
        signal: run.signal,
        timeoutMs: config.maxAgentDuration * 1000 + 60_000,
        onLine,
      }).finally(() => command.dispose());
      clock.lap('spawn-to-exit');
      flushText();
      if (outcome.kind === 'cancelled') throw run.abortFailure(run.abortReason ?? 'cancelled');
      if (outcome.kind === 'failed') turn.failure ??= outcome.reason;
      else if (outcome.exitCode !== 0 && turn.failure === null)
        turn.failure = `gemini exited with code ${outcome.exitCode}: ${stderr.join(' ').slice(-1_000)}`;
      return turn;
    };

    const validation =
      worktree !== null && config.validation !== undefined && config.validation.commands.length > 0
        ? config.validation
        : null;

    /** The final message → the role's validated result (the implementor's patch), or its questions. */
    const assemble = async (turn: Turn, round: number): Promise<AgentRunOutcome> => {
      const parsed = parseFinalMessage(turn.finalText);
      if (parsed === null) {
        throw new AgentRunFailure(
          'error',
          `the ${role}'s final message is not the JSON its schema asks for: "${turn.finalText.trim().slice(0, 200)}"`,
        );
      }
      const validated = validateAgentOutputOrQuestions(role, parsed);
      if (!validated.ok) throw new AgentRunFailure('error', validated.error);
      if (validated.value.kind === 'questions') {
        const { questions } = validated.value;
        announce(`the agent asked ${questions.length} question(s); its session waits for answers`);
        keepForAnswers = true;
        const session: KeptSession = {
          runtime: runtimeName,
          agentSessionID: geminiSessionId,
          worktree,
          stateDir: runDir,
        };
        return { kind: 'questions', askedBy: role, questions, session };
      }
      const result = validated.value.output;
      if (result.role !== 'implementor') return result as AgentResult;
      if (result.outcome !== 'completed' || worktree === null) return { ...result, patch: null };
      if (validation !== null)
        await runValidationRound({
          validation,
          round,
          cwd: worktree.path,
          env: buildGeminiValidationEnv(env),
          signal: run.signal,
          announce,
          notifyActivity,
          wrap: createValidationWrapper(config.sandbox, {
            repoRoot: config.repoRoot,
            worktree: worktree.path,
            runStateDir: runDir,
          }),
        });
      const patch = await extractPatch({
        worktreePath: worktree.path,
        baseCommit: worktree.baseCommit,
        localFiles: worktree.localFiles ?? worktrees.localFiles ?? [],
      });
      if (patch.trim() === '')
        throw new AgentRunFailure(
          'no-changes',
          'the implementor reported completed but changed nothing (empty patch)',
        );
      return { ...result, patch };
    };

    if (resume !== undefined)
      announce(`session ${resume.sessionNumber}: resuming the same gemini session with a human's answers`);
    const result = run.settle<AgentRunOutcome>(
      async () => {
        for (let round = 0, prompt = firstPrompt; ; round += 1) {
          const turn = await runTurn(prompt);
          if (run.abortReason) throw run.abortFailure(run.abortReason);
          if (turn.failure !== null)
            throw new AgentRunFailure('error', `the ${role} session failed: ${turn.failure}`);
          try {
            return await clock.time('result-and-patch', () => assemble(turn, round));
          } catch (error) {
            prompt = startFixRound({
              error,
              round,
              maxRounds: validation?.maxRounds ?? 0,
              aborted: run.abortReason !== null,
              resumed: 'session',
              announce,
            });
          }
        }
      },
      {
        sessionLog,
        cleanUp: () => clock.time('cleanup', cleanUp),
        onFailure: (failure) => {
          // 429/5xx/usage limits park the runtime instead of counting as a failed attempt.
          const limit =
            failure.reason === 'error' && failure.message.startsWith(`the ${role} session failed:`)
              ? classifyLimitMessage(failure.message, { now: Date.now() })
              : null;
          const classified =
            limit === null
              ? failure
              : new AgentRunFailure(limit.reason, failure.message, {
                  cause: failure,
                  resetsAt: limit.resetsAt,
                });
          return sandboxRefusals.explain(classified);
        },
      },
    );
    return {
      ...run.handle(result, { logFilePath: sessionLog?.filePath ?? null, usage }),
      onUsage(listener) {
        usageListeners.add(listener);
        return () => usageListeners.delete(listener);
      },
    };
  }

  return {
    runtime: runtimeName,
    isAvailable: createCachedCheck(() =>
      checkGeminiAvailability({
        env: { ...(config.baseEnv ?? process.env), ...config.extraEnv },
        binary: config.binary,
      }),
    ),
    startAgent,
    cancelAgent: (sessionID) => runs.cancel(sessionID),
    async discardSession(session) {
      if (session.worktree !== null) await worktrees.remove(session.worktree.branchName).catch(() => {});
      if (session.stateDir !== null)
        await rm(session.stateDir, { recursive: true, force: true }).catch(() => {});
    },
  };
}

/** The kept session's worktree, when this runtime kept it and its home and worktree are still there. */
function checkKeptSession(session: KeptSession, runtime: string): Worktree | null {
  if (session.runtime !== runtime)
    throw new Error(`the session to resume was kept by runtime '${session.runtime}', not '${runtime}'`);
  if (session.agentSessionID === null) throw new Error('the session to resume has no gemini session id');
  if (session.stateDir === null || !existsSync(session.stateDir))
    throw new Error(`the home of the session to resume is gone (${session.stateDir})`);
  if (session.worktree !== null && !existsSync(session.worktree.path))
    throw new Error(`the kept worktree of the session to resume is gone (${session.worktree.path})`);
  return session.worktree;
}
