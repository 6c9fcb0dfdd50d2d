import type { AgentRole } from '../../domain/index.ts';
import type { AgentStartParams, RuntimeAdapterConfig } from '../../engine/runtime-contract/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import type { WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import type { ValidationSettings } from '../shared/run-validation-round.ts';
import type { CodexProvider } from './build-codex-config-toml.ts';
import type { CodexModelPrice } from './codex-prices.ts';

export interface CodexRuntimeConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for implementor worktrees (e.g. 'main'). */
  defaultBranch: string;
  logger: Logger;
  /** CODEX_HOME directories go under `<stateDir>/runs/` (e.g. `<repo>/.flotilla/codex`), one per run. */
  stateDir: string;
  /** Files (relative to repoRoot) appended to every role's instructions, read fresh per run. */
  contextPaths?: readonly string[];
  /** Replaces Flotilla's built-in role text (see build-codex-instructions.ts). */
  roleInstructions?: Partial<Record<AgentRole, string>>;
  /** Model per role; unset: `model`, else codex's default. */
  models?: Partial<Record<AgentRole, string>>;
  model?: string;
  /** A custom Responses-API provider (e.g. the scripted model server); unset: codex's built-in OpenAI one. */
  provider?: CodexProvider;
  /** Price table for cost (default: codex-prices.ts). */
  prices?: Readonly<Record<string, CodexModelPrice>>;
  /** Setup command run in each implementor worktree; unset = detect from the lockfile; 'none' = no setup. */
  setupCommand?: string | null;
  /**
   * The repository's worktree manager, shared with the other runtimes so git's worktree operations are
   * serialised (the control plane passes one that prepares ahead and removes behind); default: one of its own.
   */
  worktrees?: WorktreeManager;
  /** The environment codex starts from (default process.env), before secrets are removed. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Added to codex's environment last (tests: the proxy tripwire). */
  extraEnv?: Readonly<Record<string, string>>;
  /** Secret-looking variables codex may see anyway (its commands still do not: see the config). */
  passThroughEnv?: readonly string[];
  /** The codex binary (default: the one `@openai/codex-sdk` bundles). */
  codexPath?: string;
  /** Session transcript writer; default: session-log/ when `logging.agentSessions` is on. */
  createSessionLog?: (params: AgentStartParams) => SessionLog;
  /** The name runs are recorded under (default `codex`; `scripted` against the scripted model server). */
  runtime?: string;
  /** In-session validation of the implementor's work (docs/runtime-spec.md §Validation Loop), as in the Claude runtime. */
  validation?: ValidationSettings;
  /**
   * The OS sandbox codex (and every command it runs) starts in (src/sandbox/); codex's own sandbox is then
   * not used. 'off': codex's own sandbox only, with a warning in every transcript. Absent: the same as 'off'
   * without the warning (the control plane always gives one).
   */
  sandbox?: Sandbox;
  /** Variables codex may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
}
