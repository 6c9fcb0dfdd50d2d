import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentUsage, buildAnswersPrompt } from '../../domain/index.ts';
import { AgentRunFailure, classifyLimitMessage } from '../../engine/runtime-contract/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import { withAgentBinOnPath } from '../shared/agent-command-channel.ts';
import type { AgentTurn, RoundEnd, TurnRun, TurnSetup } from '../shared/agent-turn.ts';
import { buildAgentSandboxRequest } from '../shared/build-agent-sandbox-request.ts';
import { chooseRunModel } from '../shared/choose-run-model.ts';
import { findModelEndpoints } from '../shared/find-model-endpoints.ts';
import {
  createReadOnlyWorktreeCheck,
  readOnlyModeOf,
  settleAgentOutput,
} from '../shared/settle-agent-output.ts';
import { buildGeminiCommand } from './build-gemini-command.ts';
import { buildGeminiEnv, buildGeminiValidationEnv } from './build-gemini-env.ts';
import { buildGeminiPrompt, parseFinalMessage } from './build-gemini-prompt.ts';
import { buildGeminiSettings } from './build-gemini-settings.ts';
import { findGeminiBinary } from './find-gemini-binary.ts';
import { priceGeminiTokens } from './gemini-prices.ts';
import type { GeminiRuntimeConfig } from './gemini-runtime-config.ts';
import { mapGeminiEvent } from './map-gemini-event.ts';
import { runGeminiProcess } from './run-gemini-process.ts';

/** What one gemini-cli process (a round) left the run. */
interface GeminiRoundEnd {
  /** The assistant's text after its last tool call: the result's JSON. */
  finalText: string;
  /** Why the round failed (the `result` event's error, an exit without one, a killed process); null: fine. */
  failure: string | null;
}

/** How much of gemini's stderr a failure quotes. */
const STDERR_TAIL_LINES = 5;

/** The project context files, read fresh per run. */
async function readContextFiles(config: GeminiRuntimeConfig): Promise<{ path: string; text: string }[]> {
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

/**
 * One run's turn on gemini-cli: each round is one headless process (round 0 the task, or the answers on a
 * resume; later rounds a validation fix round) that resumes the same gemini session, in the run's HOME and
 * the OS sandbox; its final message is the role's JSON.
 */
export async function prepareGeminiTurn(
  config: GeminiRuntimeConfig,
  setup: TurnSetup,
): Promise<AgentTurn<GeminiRoundEnd>> {
  const { params, role, worktree, cwd, runDir } = setup;
  const { resume } = params;
  // models.implementor's choice by complexity (issue #29) over the role's model.
  const model = chooseRunModel(params, role, config);
  const binary = config.binary ?? findGeminiBinary();
  if (binary === undefined) throw new Error('gemini-cli is not installed (@google/gemini-cli)');
  // A read-only mode (issue #29): the OS sandbox binds the worktree read-only; without it, refused.
  const mode = readOnlyModeOf(params);
  if (mode !== undefined && config.sandbox?.mode !== 'on')
    throw new Error(`the ${mode} run needs the OS sandbox to keep its worktree read-only (fail closed)`);
  const readOnlyCheck = mode !== undefined ? createReadOnlyWorktreeCheck(cwd, mode) : undefined;
  await readOnlyCheck?.snapshot();
  const home = join(runDir, 'home');
  let firstPrompt: string;
  if (resume !== undefined) {
    // A resumed run continues in the kept home (gemini's session file is there).
    firstPrompt = buildAnswersPrompt(resume.questions, resume.answers);
  } else {
    firstPrompt = buildGeminiPrompt({
      prompt: params.prompt,
      role,
      mode,
      contextFiles: await readContextFiles(config),
    });
    await setup.makeRunDir();
    await mkdir(join(home, '.gemini'), { recursive: true, mode: 0o700 });
    await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(buildGeminiSettings()));
  }
  // Flotilla's tools as `flotilla agent <verb>` (the per-run script the shell writes; issue #28 §2).
  const env = withAgentBinOnPath(
    buildGeminiEnv({
      baseEnv: config.baseEnv ?? process.env,
      home,
      ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
      extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
    }),
    runDir,
  );

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

  /** The process of one round inside the OS sandbox when it is on. */
  const wrapInSandbox = async (run: TurnRun, file: string, args: string[]) => {
    const plain = { file, args, env, dispose: async () => {} };
    if (config.sandbox?.mode !== 'on') return plain;
    try {
      return await config.sandbox.wrap(
        buildAgentSandboxRequest({
          repoRoot: config.repoRoot,
          worktree: worktree?.path ?? null,
          readOnlyWorktree: mode !== undefined,
          runStateDir: runDir,
          env,
          network: findModelEndpoints(env),
          programs: [process.execPath, binary],
          onNetworkRefused: (target) => {
            run.refusals.onNetworkRefused(target);
            run.notifyActivity();
          },
        }),
        file,
        args,
      );
    } catch (error) {
      throw new AgentRunFailure('error', `the OS sandbox could not start: ${messageOf(error)}`);
    }
  };

  /** One gemini-cli process: the prompt in, stream-json events out. */
  const play = async (run: TurnRun, prompt: string, round: number): Promise<GeminiRoundEnd> => {
    const { sessionLog } = run;
    const end: GeminiRoundEnd = { finalText: '', failure: null };
    let text = '';
    const stderr: string[] = [];
    /** The text so far, whole in the transcript (a secret split across deltas is still redacted). */
    const flushText = () => {
      if (text === '') return;
      if (text.trim() !== '')
        sessionLog?.record({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
      end.finalText = text;
      text = '';
    };
    const onLine = (stream: 'stdout' | 'stderr', line: string) => {
      if (stream === 'stderr') {
        run.refusals.line(line);
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
          run.output(event.text);
          return;
        case 'tool-call':
          flushText();
          end.finalText = '';
          run.output(`\n→ ${event.name} ${JSON.stringify(event.input)}\n`);
          sessionLog?.record({
            type: 'assistant',
            message: {
              content: [{ type: 'tool_use', id: event.id, name: event.name, input: event.input }],
            },
          });
          run.notifyActivity();
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
          run.notifyActivity();
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
          if (now !== null) run.reportUsage({ usage: now, model: seenModel });
          if (!event.ok) end.failure = event.error ?? 'gemini reported an error';
          return;
        }
        case 'other':
          return;
      }
    };
    const argv = buildGeminiCommand({
      node: process.execPath,
      binary,
      prompt,
      model,
      approvalMode: role === 'implementor' ? 'yolo' : 'plan',
      resume: geminiSessionId ?? undefined,
    });
    const [file = process.execPath, ...args] = argv;
    // The shell records a fix round's prompt itself.
    if (round === 0) sessionLog?.record({ type: 'user', message: { role: 'user', content: prompt } });
    // gemini runs in the worktree from here: the next run's is checked out while it works.
    run.markStarted();
    const command = await wrapInSandbox(run, file, args);
    const outcome = await runGeminiProcess({
      file: command.file,
      args: command.args,
      cwd,
      env: command.env,
      signal: run.signal,
      timeoutMs: config.maxAgentDuration * 1000 + 60_000,
      onLine,
    }).finally(() => command.dispose());
    run.clock.lap('spawn-to-exit');
    flushText();
    if (outcome.kind === 'cancelled') throw run.abortFailure(run.abortReason ?? 'cancelled');
    if (outcome.kind === 'failed') end.failure ??= outcome.reason;
    else if (outcome.exitCode !== 0 && end.failure === null)
      end.failure = `gemini exited with code ${outcome.exitCode}: ${stderr.join(' ').slice(-1_000)}`;
    return end;
  };

  /** The final message → the role's validated result (the implementor's patch), or its questions. */
  const settle = async (run: TurnRun, end: GeminiRoundEnd, round: number): Promise<RoundEnd> => {
    if (end.failure !== null)
      throw new AgentRunFailure('error', `the ${role} session failed: ${end.failure}`);
    const parsed = parseFinalMessage(end.finalText);
    if (parsed === null) {
      throw new AgentRunFailure(
        'error',
        `the ${role}'s final message is not the JSON its schema asks for: "${end.finalText.trim().slice(0, 200)}"`,
      );
    }
    // An implementor without a worktree has no patch to take.
    return settleAgentOutput({
      params,
      output: parsed,
      patch: worktree === null ? null : () => run.patch(round),
      readOnlyCheck,
    });
  };

  return {
    firstPrompt(run) {
      if (resume !== undefined)
        run.announce(
          `session ${resume.sessionNumber}: resuming the same gemini session with a human's answers`,
        );
      return firstPrompt;
    },
    play,
    settle,
    usage,
    keep: async () => ({ agentSessionID: geminiSessionId, stateDir: runDir }),
    validationEnv: buildGeminiValidationEnv(env),
    onFailure(failure) {
      // 429/5xx/usage limits park the runtime instead of counting as a failed attempt.
      const limit =
        failure.reason === 'error' && failure.message.startsWith(`the ${role} session failed:`)
          ? classifyLimitMessage(failure.message, { now: Date.now() })
          : null;
      const classified =
        limit === null
          ? failure
          : new AgentRunFailure(limit.reason, failure.message, { cause: failure, resetsAt: limit.resetsAt });
      return setup.refusals.explain(classified);
    },
  };
}
