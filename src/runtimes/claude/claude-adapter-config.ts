import type { AgentRole } from '../../domain/index.ts';
import type { AgentRunRequest, RuntimeAdapterConfig } from '../../engine/runtime-contract/index.ts';
import type { BashValidatorHook } from '../../guards/bash-validator/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import type { WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import type { ValidationSettings } from '../shared/run-validation-round.ts';

export interface ClaudeAdapterConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for worktrees (e.g. 'main'). */
  defaultBranch: string;
  /** Files (relative to repoRoot) appended to every agent's prompt; callers default to ['.claude/CLAUDE.md']. */
  contextPaths: string[];
  bashValidatorHook: BashValidatorHook;
  /**
   * The bash validator of read-only runs (modes `investigate`, `refine`: toReadOnlyBashValidatorRules). A
   * read-only run without one is refused (fail closed).
   */
  readOnlyBashValidatorHook?: BashValidatorHook;
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
   * In-session validation of the implementor's work (docs/runtime-spec.md §Validation Loop): after it reports `completed`, the commands run
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
