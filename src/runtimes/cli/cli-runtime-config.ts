import type { AgentStartParams, RuntimeAdapterConfig } from '../../engine/runtime-contract/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import type { WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import type { CliModelPrice } from './create-cli-usage-reader.ts';

export interface CliRuntimeConfig extends RuntimeAdapterConfig {
  repoRoot: string;
  /** Base branch for worktrees (e.g. 'main'). */
  defaultBranch: string;
  logger: Logger;
  /** Per-run directories (prompt files, the agent's config/temp dirs) go under `<stateDir>/runs/<id>`. */
  stateDir: string;
  /** A built-in preset's name (`claude`, `codex`, `aider`, `gemini`, `opencode`) or `custom`. */
  preset: string;
  /** The templates of the `custom` preset (validated; see cli-presets.ts). */
  customPreset?: unknown;
  /** Replaces the preset's program (e.g. an absolute path, or `node fake-agent-cli.js` in tests). */
  program?: readonly string[];
  /**
   * The OS sandbox the agent process (and everything it runs) starts in (src/sandbox/); 'off' runs it
   * unsandboxed with a warning in every transcript. Absent: unsandboxed (the control plane always gives one).
   */
  sandbox?: Sandbox;
  /** Variables agents may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
  /** Setup command in implementor worktrees; unset = detect from the lockfile; 'none' = no setup. */
  setupCommand?: string | null;
  /** The environment agents start from (default process.env), before secrets are removed. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Added to every agent's environment. */
  extraEnv?: Readonly<Record<string, string>>;
  /** Secret-looking variables agents may see anyway (besides the preset's model credentials). */
  passThroughEnv?: readonly string[];
  /** Repository-relative paths an implementor's patch may not touch (besides the built-in ones). */
  protectedPaths?: readonly string[];
  /**
   * Shared with the other CLI roles of the repository, so git's worktree operations are serialised;
   * default: one of its own.
   */
  worktrees?: WorktreeManager;
  /** Transcript writer; default: a session log under `logging.logsDir` when `logging.agentSessions`. */
  createSessionLog?: (params: AgentStartParams) => SessionLog;
  /** The name runs are recorded under; default `cli:<preset>`. */
  runtime?: string;
  /**
   * Prices a model's per-request tokens for the live usage signal of presets that report them
   * (`claude-stream-json`; the control plane passes the Claude runtime's table). Absent: live cost unknown.
   */
  findModelPrice?: (model: string) => CliModelPrice | null;
}
