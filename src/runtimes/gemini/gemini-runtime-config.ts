import type { AgentRole } from '../../domain/index.ts';
import type { AgentStartParams, RuntimeAdapterConfig } from '../../engine/runtime-contract/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import type { WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import type { ValidationSettings } from '../shared/run-validation-round.ts';
import type { GeminiModelPrice } from './gemini-prices.ts';

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
