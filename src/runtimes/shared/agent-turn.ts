import type { AgentResult, AgentRole, AgentUsage, KeptSession } from '../../domain/index.ts';
import type {
  AgentRunFailure,
  AgentStartParams,
  LiveUsageReport,
  RuntimeAvailability,
} from '../../engine/runtime-contract/index.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import type { Worktree } from '../../workspace/create-worktree-manager.ts';
import type { AgentConversations } from './create-agent-conversations.ts';
import type { AgentNotes } from './create-agent-notes.ts';
import type { PhaseClock } from './create-phase-clock.ts';
import type { AbortReason } from './create-run-registry.ts';
import type { SandboxRefusals } from './create-sandbox-refusals.ts';

/**
 * What the run shell (create-run-shell.ts) has set up when a runtime provisions its turn: the worktree
 * exists, the run directory is named, nothing of the runtime's runs yet.
 */
export interface TurnSetup {
  readonly params: AgentStartParams;
  readonly sessionID: string;
  readonly role: AgentRole;
  readonly clock: PhaseClock;
  /** The run's worktree (a kept one on a resume); null: the role works in the repository itself. */
  readonly worktree: Worktree | null;
  /** Where the agent works: the worktree, else the repository. */
  readonly cwd: string;
  /** The run's own directory (`<stateDir>/runs/…`); on a resume of a runtime that keeps it, the kept one. */
  readonly runDir: string;
  /**
   * Creates the run directory (phase `state-dir`), once: at the point of provisioning the runtime chooses,
   * else right after it.
   */
  makeRunDir(): Promise<void>;
  /** What the OS sandbox refused: give `onNetworkRefused` and the sandbox's stderr lines to it. */
  readonly refusals: SandboxRefusals;
  /** Reports the run's usage so far to the handle's `onUsage` listeners (the engine's budgets). */
  reportUsage(report: LiveUsageReport): void;
  /**
   * The run's notes (issue #28 §2): a runtime whose agent calls Flotilla's tools in-process (Claude's MCP
   * server) records each call here; the handle's `onNote` hands them to the engine.
   */
  readonly notes: AgentNotes;
  /**
   * The run's conversations with other agents (issue #28 §3): the asks and answers of a runtime whose agent
   * calls the tools in-process (Claude's MCP server) go here, and the questions for it wait here (push them
   * into a live session when the runtime can). Agents that run commands reach it through `flotilla agent`.
   */
  readonly conversations: AgentConversations;
  /**
   * The directory of the per-run `flotilla` script (`flotilla agent <verb>`, agent-command-channel.ts), for
   * agents that run commands: put it first on their PATH and append buildAgentCommandInstructions() to
   * their prompt. The shell writes it with the run directory and reads the notes it collects.
   */
  readonly agentBinDir: string;
  /**
   * Registers what the run's clean-up releases before the shell removes the run directory and the worktree
   * (also when provisioning fails). `kept`: the session waits for a human's answers, keep its state.
   */
  onRelease(release: (kept: boolean) => Promise<void> | void): void;
}

/** The run as its turn sees it once it is under way. */
export interface TurnRun extends TurnSetup {
  /** Aborted on cancel and on timeout: hand it to the SDK, the process. */
  readonly signal: AbortSignal;
  readonly abortReason: AbortReason | null;
  abortFailure(reason: AbortReason): AgentRunFailure;
  /** The transcript; null when transcripts are off. */
  readonly sessionLog: SessionLog | null;
  /** A chunk of the live output stream. */
  output(text: string): void;
  /** A line of Flotilla's own in the live stream and the transcript (counts as activity). */
  announce(line: string): void;
  /** Tells the engine's stall detection the run is busy. */
  notifyActivity(): void;
  /** The agent is under way: the handle may return, the next run's spare worktree is prepared. */
  markStarted(): void;
  /**
   * The implementor's patch after its round `round`: the validation commands first (when configured; a
   * failing one throws, and the shell resumes the session with the errors), then the worktree's diff.
   */
  patch(round: number): Promise<string>;
}

/** How a round ended, in the shell's terms. */
export type RoundEnd =
  | { kind: 'result'; result: AgentResult }
  /** The agent stopped to ask a human: the shell keeps the session for the answers. */
  | { kind: 'questions'; questions: string[] }
  /** The round does not count (e.g. no valid signal file): play another with `prompt`. */
  | { kind: 'again'; prompt: string };

/**
 * One runtime's part of a run: playing its rounds in its SDK or process, mapping what streams back, and
 * reading a round's end. `End` is whatever `play` learns that `settle` needs.
 */
export interface AgentTurn<End = unknown> {
  /** The first round's prompt; on a resume, also the runtime's announcement of it. */
  firstPrompt(run: TurnRun): string;
  /**
   * Plays one round to its end: round 0 starts the session (continues the kept one on a resume), later
   * rounds continue it with `prompt` (a validation fix round, a re-prompt). Calls `run.markStarted()`.
   */
  play(run: TurnRun, prompt: string, round: number): Promise<End>;
  /**
   * The round's outcome: the role's validated result (an implementor's patch from `run.patch(round)`), the
   * agent's questions, another round, or a thrown failure.
   */
  settle(run: TurnRun, end: End, round: number): Promise<RoundEnd>;
  /** The run's usage so far (the handle's `usage()`). */
  usage(): AgentUsage | null;
  /** What the kept session needs for the resume: the agent's own session id and the state to keep. */
  keep(run: TurnRun): Promise<Pick<KeptSession, 'agentSessionID' | 'stateDir'>>;
  /** Lines the transcript starts with (e.g. the account the run uses). */
  readonly transcriptNotes?: readonly string[];
  /** The environment of the implementor's validation commands (when validation is configured). */
  readonly validationEnv?: Readonly<Record<string, string>>;
  /** A thrown error that is no AgentRunFailure, in the runtime's words (default: reason `error`). */
  toFailure?(error: unknown): AgentRunFailure;
  /** The runtime's last word on a failure (default: what the OS sandbox refused appended). */
  onFailure?(
    failure: AgentRunFailure,
    error: unknown,
    run: TurnRun,
  ): AgentRunFailure | Promise<AgentRunFailure>;
}

/** What a runtime hands the run shell: its turn and the few facts the shell cannot know. */
export interface RuntimeTurnSource {
  /** What a fix round resumes and a kept session keeps, for announcements (`session`, `thread`). */
  readonly continues: string;
  /** The run directory's name under `<stateDir>/runs/` (default: the session id). */
  runDirName?(sessionID: string): string;
  /** Whether the run directory is the kept session's state (resumed there, kept while it waits). */
  readonly keepsRunDir: boolean;
  /** Wait for the agent to start (`markStarted`) before startAgent resolves. */
  readonly returnsWhenStarted: boolean;
  /** A new run's worktree: its scratch branch and whether the setup command runs; null: none. */
  worktreeFor(params: AgentStartParams): { branchName: string; setup?: boolean } | null;
  /** Throws, saying what is missing, when a kept session cannot be resumed here. */
  checkResume(session: KeptSession): void;
  /** Provisions one run's turn (environment, sandbox, SDK or command); a throw fails startAgent. */
  prepare(setup: TurnSetup): Promise<AgentTurn>;
  /** The runtime's preflight, cached by the shell. */
  checkAvailability(): RuntimeAvailability;
  /** Removes a discarded session's state (default: the directory). */
  removeState?(stateDir: string): Promise<void>;
  /**
   * Whether it runs the read-only modes (`investigate`, `refine`; issue #29) with file writes refused by its
   * guards. A runtime without it refuses such runs at start (fail closed).
   */
  readonly runsReadOnlyModes?: boolean;
}
