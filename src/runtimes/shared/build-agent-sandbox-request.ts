import { join } from 'node:path';
import { SANDBOX_OFF_NOTICE, type Sandbox, type SandboxRequest } from '../../sandbox/sandbox-types.ts';
import type { CommandWrapper } from '../../workspace/validation/run-validation-commands.ts';

export interface AgentSandboxProfile {
  repoRoot: string;
  /** The implementor's worktree (writable, git commits go to a per-run git dir); null: the role only reads. */
  worktree: string | null;
  /**
   * A read-only run (modes `investigate`, `refine`; issue #29): the worktree is bound read-only (no git
   * commits either), so the OS refuses every write there whatever tool the agent uses.
   */
  readOnlyWorktree?: boolean;
  /** The run's own state directory (the runtime's config and temp files): always writable. */
  runStateDir: string;
  /** Further directories the runtime itself writes (e.g. codex's CODEX_HOME). */
  extraWritable?: readonly string[];
  /** The agent's whole environment, already allow-listed. */
  env: Readonly<Record<string, string>>;
  /** What the agent process must reach: its model API (a URL). Nothing else is reachable. */
  network: readonly string[];
  /** The programs it runs (their install directories stay readable). */
  programs: readonly string[];
  /** Told each connection the sandbox refused (see create-sandbox-refusals.ts). */
  onNetworkRefused?: (target: string) => void;
}

/**
 * The one sandbox profile every runtime gives its agents (src/sandbox/README.md): the worktree and the run's
 * state writable, the repository readable with `.git` read-only, nothing else writable; git commits inside
 * go to a per-run git directory in the run's state. A read-only run's worktree is readable only.
 */
export function buildAgentSandboxRequest(profile: AgentSandboxProfile): SandboxRequest {
  const { worktree } = profile;
  const readOnly = worktree !== null && profile.readOnlyWorktree === true;
  return {
    repoRoot: profile.repoRoot,
    cwd: worktree ?? profile.repoRoot,
    writable: [
      ...(worktree === null || readOnly ? [] : [worktree]),
      profile.runStateDir,
      ...(profile.extraWritable ?? []),
    ],
    ...(readOnly && { readable: [worktree] }),
    ...(worktree !== null &&
      !readOnly && {
        gitWorktree: { worktree, gitStateDir: join(profile.runStateDir, 'sandbox-git') },
      }),
    env: profile.env,
    network: profile.network,
    programs: profile.programs,
    ...(profile.onNetworkRefused !== undefined && { onNetworkRefused: profile.onNetworkRefused }),
  };
}

/** The validation commands' profile: the agent's worktree writable, no network, git read-only. */
export function buildValidationSandboxRequest(input: {
  repoRoot: string;
  worktree: string;
  runStateDir: string;
  env: Readonly<Record<string, string>>;
}): SandboxRequest {
  return {
    repoRoot: input.repoRoot,
    cwd: input.worktree,
    writable: [input.worktree, input.runStateDir],
    env: input.env,
    network: [],
    programs: ['sh'],
  };
}

/** The line every transcript of an unsandboxed run starts with. */
export const SANDBOX_OFF_WARNING = `WARNING: ${SANDBOX_OFF_NOTICE}`;

/**
 * The validation commands' wrapper for a run: each command in the sandbox with the validation profile; null
 * when the sandbox is absent or off (the commands then run as they are).
 */
export function createValidationWrapper(
  sandbox: Sandbox | undefined,
  place: { repoRoot: string; worktree: string; runStateDir: string },
): CommandWrapper | undefined {
  if (sandbox === undefined || sandbox.mode === 'off') return undefined;
  return (file, args, env) => sandbox.wrap(buildValidationSandboxRequest({ ...place, env }), file, args);
}
