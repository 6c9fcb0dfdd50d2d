import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentQuestions, AgentRunOutcome, KeptSession } from '../../domain/index.ts';
import type {
  AgentRunHandle,
  AgentStartParams,
  LiveUsageReport,
  PhaseListener,
  RuntimeAdapter,
} from '../../engine/runtime-contract/index.ts';
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import { createCachedCheck } from '../../shared/create-cached-check.ts';
import type { Worktree } from '../../workspace/create-worktree-manager.ts';
import { extractPatch } from '../../workspace/extract-patch.ts';
import type { AgentTurn, RuntimeTurnSource, TurnRun, TurnSetup } from './agent-turn.ts';
import { createValidationWrapper, SANDBOX_OFF_WARNING } from './build-agent-sandbox-request.ts';
import { createPhaseClock, type PhaseClock } from './create-phase-clock.ts';
import { type ActiveRun, createRunRegistry } from './create-run-registry.ts';
import { createRuntimeWorktrees, type RuntimeWorktreesConfig } from './create-runtime-worktrees.ts';
import { createSandboxRefusals } from './create-sandbox-refusals.ts';
import { runValidationRound, startFixRound, type ValidationSettings } from './run-validation-round.ts';

export interface RunShellConfig extends RuntimeWorktreesConfig {
  /** The name runs are recorded under, and kept sessions. */
  runtime: string;
  /** Run directories go under `<stateDir>/runs/`. */
  stateDir: string;
  maxAgentDuration: number;
  onPhase?: PhaseListener | undefined;
  /** The implementor's validation commands, run before its patch is taken; fix rounds on failure. */
  validation?: ValidationSettings | undefined;
  /** The OS sandbox: 'off' notes a warning in every transcript; validation commands run in it. */
  sandbox?: Sandbox | undefined;
  /** Repository paths an implementor's patch may not touch (besides the built-in ones). */
  protectedPaths?: readonly string[] | undefined;
  /** One transcript per run; null: none. */
  createSessionLog: ((params: AgentStartParams) => SessionLog) | null;
}

export type ShellRuntime = RuntimeAdapter & {
  readonly runtime: string;
  discardSession(session: KeptSession): Promise<void>;
};

/**
 * The run shell every agent runtime shares: worktree (new or kept), run directory, the run's registration
 * (cancel, timeout), transcript, live usage, the rounds (validation fix rounds, re-prompts), questions kept
 * for a resume, the failure a result rejects with, and the clean-up. The runtime supplies only its turn
 * (agent-turn.ts): provisioning, playing a round, reading its end.
 */
export function createRunShell(config: RunShellConfig, source: RuntimeTurnSource): ShellRuntime {
  const runs = createRunRegistry();
  const worktrees = createRuntimeWorktrees(config);
  const removeState = source.removeState ?? ((dir: string) => rm(dir, { recursive: true, force: true }));

  async function startAgent(params: AgentStartParams): Promise<AgentRunHandle> {
    const { sessionID, resume } = params;
    runs.assertIdle(sessionID);
    const clock = createPhaseClock(sessionID, config.onPhase);
    const runDir =
      (source.keepsRunDir ? resume?.session.stateDir : undefined) ??
      join(config.stateDir, 'runs', source.runDirName?.(sessionID) ?? sessionID);
    const releases: ((kept: boolean) => Promise<void> | void)[] = [];
    let worktree: Worktree | null = null;
    const cleanUp = async (kept: boolean) => {
      for (const release of releases) await release(kept);
      if (!kept || !source.keepsRunDir) await rm(runDir, { recursive: true, force: true }).catch(() => {});
      // Last: with removal behind, git starts once the result is on its way.
      if (!kept && worktree) await worktrees.remove(worktree.branchName);
    };
    let sessionLog: SessionLog | null = null;
    const refusals = createSandboxRefusals({ note: (text) => sessionLog?.note(text) });
    const usageListeners = new Set<(report: LiveUsageReport) => void>();

    let turn: AgentTurn;
    try {
      worktree = await provideWorktree(params, clock);
      let made: Promise<unknown> | null = null;
      const makeRunDir = async () => {
        made ??= clock.time('state-dir', () => mkdir(runDir, { recursive: true, mode: 0o700 }));
        await made;
      };
      turn = await source.prepare({
        params,
        sessionID,
        role: params.role,
        clock,
        worktree,
        cwd: worktree?.path ?? config.repoRoot,
        runDir,
        refusals,
        reportUsage: (report) => {
          for (const listener of usageListeners) listener(report);
        },
        onRelease: (release) => releases.push(release),
        makeRunDir,
      });
      await makeRunDir();
    } catch (error) {
      await cleanUp(false);
      throw error;
    }
    const setup = { worktree, runDir, clock, refusals, usageListeners, cleanUp };
    return startRun(params, turn, setup, (log) => {
      sessionLog = log;
    });
  }

  /** The kept worktree of a resume, a new one when the runtime wants one, else none. */
  async function provideWorktree(params: AgentStartParams, clock: PhaseClock) {
    if (params.resume !== undefined) {
      source.checkResume(params.resume.session);
      return params.resume.session.worktree;
    }
    const wanted = source.worktreeFor(params);
    if (wanted === null) return null;
    return clock.time('worktree-create', () =>
      worktrees.create(wanted.branchName, wanted.setup !== undefined ? { setup: wanted.setup } : undefined),
    );
  }

  /** Registers the run and plays it; resolves with the handle (once the agent started, if the runtime says so). */
  async function startRun(
    params: AgentStartParams,
    turn: AgentTurn,
    setup: {
      worktree: Worktree | null;
      runDir: string;
      clock: PhaseClock;
      refusals: TurnSetup['refusals'];
      usageListeners: Set<(report: LiveUsageReport) => void>;
      cleanUp: (kept: boolean) => Promise<void>;
    },
    bindSessionLog: (log: SessionLog | null) => void,
  ): Promise<AgentRunHandle> {
    const { sessionID, role, resume } = params;
    const { worktree, clock } = setup;
    const run = runs.begin({ sessionID, role, maxAgentDuration: config.maxAgentDuration });
    const sessionLog = config.createSessionLog?.(params) ?? null;
    bindSessionLog(sessionLog);
    for (const note of turn.transcriptNotes ?? []) sessionLog?.note(note);
    if (config.sandbox?.mode === 'off') sessionLog?.note(SANDBOX_OFF_WARNING);
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    // This run took a worktree: the next run's is checked out while this agent works.
    if (worktree !== null && resume === undefined) void started.then(() => worktrees.prepareSpare());
    const turnRun = buildTurnRun(params, run, sessionLog, setup, markStarted, turn);

    /** Whether the worktree and state stay after the run: the agent asked and waits for answers. */
    let kept = false;
    const waitForAnswers = async (questions: string[]): Promise<AgentQuestions> => {
      turnRun.announce(
        `the agent asked ${questions.length} question(s); its ${source.continues} waits for answers`,
      );
      kept = true;
      const own = await turn.keep(turnRun);
      const session: KeptSession = { runtime: config.runtime, worktree, ...own };
      return { kind: 'questions', askedBy: role, questions, session };
    };

    const result = run.settle<AgentRunOutcome>(
      async () => {
        for (let round = 0, prompt = turn.firstPrompt(turnRun); ; round += 1) {
          clock.lap(round === 0 ? 'session-setup' : 'fix-round-setup');
          const end = await turn.play(turnRun, prompt, round);
          if (run.abortReason) throw run.abortFailure(run.abortReason);
          try {
            const verdict = await clock.time('result-and-patch', () => turn.settle(turnRun, end, round));
            if (verdict.kind === 'result') return verdict.result;
            if (verdict.kind === 'questions') return await waitForAnswers(verdict.questions);
            prompt = verdict.prompt;
          } catch (error) {
            prompt = startFixRound({
              error,
              round,
              maxRounds: config.validation?.maxRounds ?? 0,
              aborted: run.abortReason !== null,
              resumed: source.continues,
              announce: turnRun.announce,
            });
            sessionLog?.record({ type: 'user', message: { role: 'user', content: prompt } });
          }
        }
      },
      {
        sessionLog,
        // A kept session keeps its worktree and state, not its sandbox: the resume makes its own.
        cleanUp: () => clock.time('cleanup', () => setup.cleanUp(kept)),
        ...(turn.toFailure !== undefined && { toFailure: (error) => turn.toFailure!(error) }),
        onFailure: (failure, error) =>
          turn.onFailure !== undefined
            ? turn.onFailure(failure, error, turnRun)
            : setup.refusals.explain(failure),
      },
    );

    // Never left waiting: a run that ends before its agent started returns its (settled) handle.
    void result.catch(() => {}).finally(markStarted);
    if (source.returnsWhenStarted) await started;
    return {
      ...run.handle(result, {
        logFilePath: sessionLog?.filePath ?? null,
        usage: () => turn.usage(),
      }),
      onUsage(listener) {
        setup.usageListeners.add(listener);
        return () => setup.usageListeners.delete(listener);
      },
    };
  }

  /** The run as the turn sees it: the shell's registration, transcript, validation and patch. */
  function buildTurnRun(
    params: AgentStartParams,
    run: ActiveRun,
    sessionLog: SessionLog | null,
    setup: {
      worktree: Worktree | null;
      runDir: string;
      clock: PhaseClock;
      refusals: TurnSetup['refusals'];
      usageListeners: Set<(report: LiveUsageReport) => void>;
    },
    markStarted: () => void,
    turn: AgentTurn,
  ): TurnRun {
    const { worktree, runDir } = setup;
    const validation =
      worktree !== null && config.validation !== undefined && config.validation.commands.length > 0
        ? config.validation
        : null;
    const announce = (line: string) => {
      run.output.push(`${line}\n`);
      sessionLog?.note(line);
      run.notifyActivity();
    };
    return {
      params,
      sessionID: params.sessionID,
      role: params.role,
      clock: setup.clock,
      worktree,
      cwd: worktree?.path ?? config.repoRoot,
      runDir,
      refusals: setup.refusals,
      reportUsage: (report) => {
        for (const listener of setup.usageListeners) listener(report);
      },
      onRelease: () => {
        throw new Error('releases are registered while the turn is prepared');
      },
      makeRunDir: async () => {},
      signal: run.signal,
      get abortReason() {
        return run.abortReason;
      },
      abortFailure: run.abortFailure,
      sessionLog,
      output: (text) => run.output.push(text),
      announce,
      notifyActivity: run.notifyActivity,
      markStarted,
      async patch(round) {
        if (worktree === null) return '';
        if (validation !== null) {
          await runValidationRound({
            validation,
            round,
            cwd: worktree.path,
            env: turn.validationEnv ?? {},
            signal: run.signal,
            announce,
            notifyActivity: run.notifyActivity,
            wrap: createValidationWrapper(config.sandbox, {
              repoRoot: config.repoRoot,
              worktree: worktree.path,
              runStateDir: runDir,
            }),
          });
        }
        return extractPatch({
          worktreePath: worktree.path,
          baseCommit: worktree.baseCommit,
          ...(config.protectedPaths !== undefined && { protectedPaths: config.protectedPaths }),
          localFiles: worktree.localFiles ?? worktrees.localFiles ?? [],
        });
      },
    };
  }

  return {
    runtime: config.runtime,
    isAvailable: createCachedCheck(() => source.checkAvailability()),
    startAgent,
    cancelAgent: (sessionID) => runs.cancel(sessionID),
    async discardSession(session) {
      if (session.worktree !== null) await worktrees.remove(session.worktree.branchName);
      if (session.stateDir !== null) await removeState(session.stateDir).catch(() => {});
    },
  };
}
