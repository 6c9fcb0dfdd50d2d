import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentRunOutcome, KeptSession } from '../../domain/index.ts';
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
import {
  agentBinDir,
  createAgentNotesReader,
  writeAgentCommand,
  writeAgentInbox,
} from './agent-command-channel.ts';
import type { AgentTurn, RuntimeTurnSource } from './agent-turn.ts';
import { SANDBOX_OFF_WARNING } from './build-agent-sandbox-request.ts';
import { buildTurnRun } from './build-turn-run.ts';
import { createAgentConversations } from './create-agent-conversations.ts';
import { createAgentNotes } from './create-agent-notes.ts';
import { createPhaseClock, type PhaseClock } from './create-phase-clock.ts';
import { createRunRegistry } from './create-run-registry.ts';
import { createRuntimeWorktrees, type RuntimeWorktreesConfig } from './create-runtime-worktrees.ts';
import { createSandboxRefusals } from './create-sandbox-refusals.ts';
import { playRounds } from './play-rounds.ts';
import type { ValidationSettings } from './run-validation-round.ts';

/** How often a run's notes file (`flotilla agent` commands) is read while the agent works. */
const NOTES_POLL_MS = 500;

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
 * An implementor's patch says what it is against (its worktree's base commit): the provider commits a
 * revision on it when the default branch lacks it (stacked work, issue #30).
 */
function withPatchBase(outcome: AgentRunOutcome, worktree: Worktree | null): AgentRunOutcome {
  if (worktree === null || !('role' in outcome) || outcome.role !== 'implementor' || outcome.patch === null)
    return outcome;
  return { ...outcome, base: worktree.baseCommit };
}

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
    runs.assertIdle(params.sessionID);
    if (params.role === 'implementor' && params.mode !== undefined && source.runsReadOnlyModes !== true) {
      throw new Error(
        `the ${config.runtime ?? 'runtime'} runtime cannot run the read-only mode '${params.mode}' (it cannot ` +
          'refuse file writes)',
      );
    }
    const frame = createFrame(params);
    let turn: AgentTurn;
    try {
      frame.setup.worktree = await provideWorktree(params, frame.setup.clock);
      // What the worktree's start did not do as asked (a failed rebase…): the agent is told too.
      const notes = params.resume === undefined ? (frame.setup.worktree?.notes ?? []) : [];
      if (notes.length > 0)
        frame.setup.params = {
          ...params,
          prompt: `${params.prompt}\n\n## Workspace Notes\n${notes.map((note) => `- ${note}`).join('\n')}\n`,
        };
      turn = await source.prepare(frame.setup);
      await frame.setup.makeRunDir();
    } catch (error) {
      await frame.cleanUp(false);
      throw error;
    }
    return startRun(frame, turn);
  }

  /** One run's frame before its turn: the setup handed to the turn, its listeners and its clean-up. */
  function createFrame(params: AgentStartParams) {
    const { sessionID, resume } = params;
    const clock = createPhaseClock(sessionID, config.onPhase);
    const runDir =
      (source.keepsRunDir ? resume?.session.stateDir : undefined) ??
      join(config.stateDir, 'runs', source.runDirName?.(sessionID) ?? sessionID);
    const releases: ((kept: boolean) => Promise<void> | void)[] = [];
    const usageListeners = new Set<(report: LiveUsageReport) => void>();
    let made: Promise<unknown> | null = null;
    const notes = createAgentNotes(params.role);
    const conversations = createAgentConversations();
    const frame = {
      sessionLog: null as SessionLog | null,
      usageListeners,
      /** Reads the notes `flotilla agent` commands append; set once the run is under way. */
      notesReader: null as { poll(): Promise<void>; timer: NodeJS.Timeout } | null,
      setup: {
        params,
        sessionID,
        role: params.role,
        clock,
        worktree: null as Worktree | null,
        get cwd() {
          return frame.setup.worktree?.path ?? config.repoRoot;
        },
        runDir,
        notes,
        conversations,
        agentBinDir: agentBinDir(runDir),
        refusals: createSandboxRefusals({ note: (text) => frame.sessionLog?.note(text) }),
        reportUsage(report: LiveUsageReport) {
          for (const listener of usageListeners) listener(report);
        },
        onRelease: (release: (kept: boolean) => Promise<void> | void) => {
          releases.push(release);
        },
        async makeRunDir() {
          made ??= clock.time('state-dir', async () => {
            await mkdir(runDir, { recursive: true, mode: 0o700 });
            await writeAgentCommand(runDir, params.role);
          });
          await made;
        },
      },
      /** Releases the turn's parts, then the run directory and the worktree unless the session is kept. */
      async cleanUp(kept: boolean) {
        // The last notes first: an agent's final `flotilla agent` calls count like the earlier ones.
        if (frame.notesReader !== null) {
          clearInterval(frame.notesReader.timer);
          await frame.notesReader.poll();
        }
        for (const release of releases) await release(kept);
        if (!kept || !source.keepsRunDir) await rm(runDir, { recursive: true, force: true }).catch(() => {});
        // Last: with removal behind, git starts once the result is on its way.
        const { worktree } = frame.setup;
        if (!kept && worktree) await worktrees.remove(worktree.branchName);
      },
    };
    return frame;
  }

  /** The kept worktree of a resume, a new one when the runtime wants one, else none. */
  async function provideWorktree(params: AgentStartParams, clock: PhaseClock) {
    if (params.resume !== undefined) {
      source.checkResume(params.resume.session);
      return params.resume.session.worktree;
    }
    const wanted = source.worktreeFor(params);
    if (wanted === null) return null;
    // Issue #30: an implementor's worktree may start from its blockers' revisions, or rebase its previous
    // one; any role's from the tracker's default branch, fetched (a reviewer's with the revision on top).
    const { start } = params;
    return clock.time('worktree-create', () =>
      worktrees.create(wanted.branchName, {
        ...(wanted.setup !== undefined && { setup: wanted.setup }),
        ...(start !== undefined && { start }),
      }),
    );
  }

  /** Registers the run and plays it; resolves with the handle (once the agent started, if the runtime says so). */
  async function startRun(frame: ReturnType<typeof createFrame>, turn: AgentTurn): Promise<AgentRunHandle> {
    const { setup } = frame;
    const { params, sessionID, role, worktree, clock } = setup;
    // The mode's timeout (config `limits.<mode>.timeout`) replaces the single maxAgentDuration where set.
    const maxAgentDuration = params.limits?.timeoutSeconds ?? config.maxAgentDuration;
    const run = runs.begin({ sessionID, role, maxAgentDuration });
    const sessionLog = config.createSessionLog?.(params) ?? null;
    frame.sessionLog = sessionLog;
    for (const note of turn.transcriptNotes ?? []) sessionLog?.note(note);
    if (params.resume === undefined) for (const note of worktree?.notes ?? []) sessionLog?.note(note);
    const reader = createAgentNotesReader(
      setup.runDir,
      setup.notes,
      (problem) => sessionLog?.note(`flotilla agent: a note was refused (${problem})`),
      setup.conversations,
    );
    // The questions waiting for this agent, where `flotilla agent check-messages|listen` read them; one
    // write at a time, in order, so the file always ends as the latest list.
    let inboxWrite: Promise<void> = Promise.resolve();
    const unsubscribeInbox = setup.conversations.onChange((added) => {
      if (added !== null)
        sessionLog?.note(`question from the ${added.from} (${added.conversationID}): ${added.question}`);
      const pending = setup.conversations.pending();
      inboxWrite = inboxWrite.then(() => writeAgentInbox(setup.runDir, pending)).catch(() => {});
    });
    setup.onRelease(() => unsubscribeInbox());
    frame.notesReader = {
      poll: reader.poll,
      timer: setInterval(() => void reader.poll(), NOTES_POLL_MS).unref(),
    };
    if (config.sandbox?.mode === 'off') sessionLog?.note(SANDBOX_OFF_WARNING);
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    // This run took a worktree: the next run's is checked out while this agent works.
    if (worktree !== null && params.resume === undefined) void started.then(() => worktrees.prepareSpare());
    const turnRun = buildTurnRun({
      config,
      worktrees,
      setup,
      run,
      sessionLog,
      markStarted,
      validationEnv: turn.validationEnv,
    });

    /** Whether the worktree and state stay after the run: the agent asked and waits for answers. */
    let kept = false;
    const result = run.settle<AgentRunOutcome>(
      async () => {
        const end = await playRounds({
          turn,
          turnRun,
          run,
          maxFixRounds: config.validation?.maxRounds ?? 0,
          continues: source.continues,
        });
        if (!('kind' in end)) return withPatchBase(end, worktree);
        turnRun.announce(
          `the agent asked ${end.questions.length} question(s); its ${source.continues} waits for answers`,
        );
        kept = true;
        const session: KeptSession = { runtime: config.runtime, worktree, ...(await turn.keep(turnRun)) };
        return { kind: 'questions', askedBy: role, questions: end.questions, session };
      },
      {
        sessionLog,
        // A kept session keeps its worktree and state, not its sandbox: the resume makes its own.
        cleanUp: () => clock.time('cleanup', () => frame.cleanUp(kept)),
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
      ...run.handle(result, { logFilePath: sessionLog?.filePath ?? null, usage: () => turn.usage() }),
      onUsage(listener) {
        frame.usageListeners.add(listener);
        return () => frame.usageListeners.delete(listener);
      },
      onNote: (listener) => setup.notes.onNote(listener),
      conversations: setup.conversations.port,
    };
  }

  return {
    runtime: config.runtime,
    isAvailable: createCachedCheck(() => source.checkAvailability()),
    startAgent,
    cancelAgent: (sessionID) => runs.cancel(sessionID),
    // The state goes even when the worktree's removal fails; that failure is the caller's to log.
    async discardSession(session) {
      const removed =
        session.worktree !== null ? worktrees.remove(session.worktree.branchName) : Promise.resolve();
      await removed.catch(() => {});
      if (session.stateDir !== null) await removeState(session.stateDir).catch(() => {});
      await removed;
    },
  };
}
