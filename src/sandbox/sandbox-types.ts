/**
 * The OS sandbox every agent process and every command run on its behalf starts in (bubblewrap on Linux).
 * The contract between this floor and its users (runtimes, validation commands, the control plane).
 */

/** `sandbox` in flotilla.config.json, as config/ parses it. */
export interface SandboxSettings {
  /** 'on' (default): every agent runs sandboxed, and nothing starts when the sandbox cannot. 'off': loud opt-out. */
  mode: 'on' | 'off';
  /** Hosts (`registry.npmjs.org`, `host:port`) agents may reach besides their runtime's model API. */
  networkAllow: readonly string[];
  /** Variables copied into agents' environments besides the built-in allow-list. */
  passEnv: readonly string[];
  /** Absolute paths made readable although under a hidden directory (e.g. a toolchain under $HOME). */
  allowRead: readonly string[];
  /** Absolute paths hidden besides the built-in ones. */
  denyRead: readonly string[];
}

/** One sandboxed process: what it may write, read and reach. */
export interface SandboxRequest {
  /** The repository's main checkout: readable; its `.git` read-only; `.flotilla/` and `.worktrees/` hidden. */
  repoRoot: string;
  /** Where the process starts. */
  cwd: string;
  /** Read-write directories (the agent's worktree, its run state directory). Re-exposed under hidden ones. */
  writable: readonly string[];
  /**
   * Directories made readable (bound read-only) although under a hidden one: the worktree of a read-only
   * run (modes `investigate` and `refine`, issue #29), whose agent may read it but never write it.
   */
  readable?: readonly string[];
  /**
   * The agent's worktree when it may commit: git inside the sandbox writes to a per-run git directory under
   * `gitStateDir` (objects shared read-only with the repository through alternates); the repository's own
   * `.git` stays read-only.
   */
  gitWorktree?: { worktree: string; gitStateDir: string };
  /** The whole environment the process gets (already allow-listed); nothing else is readable, /proc included. */
  env: Readonly<Record<string, string>>;
  /**
   * What the process may reach on the network: URLs or `host:port` (its model API). Loopback endpoints are
   * forwarded into the sandbox's own network namespace; other hosts go through a proxy that allows only
   * these and the settings' `networkAllow`. Everything else is refused.
   */
  network: readonly string[];
  /** Programs that must be runnable (their install directories are made readable when hidden). */
  programs: readonly string[];
  /**
   * Told each connection of this process the sandbox refused (`host:port`, or `METHOD target` for a plain
   * proxy request), as it happens: for the run's transcript and failure reason.
   */
  onNetworkRefused?: (target: string) => void;
}

/** A command ready to spawn: run `file` with `args` and exactly `env`. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Releases what the sandbox set up for this process (network bridge, sockets); call after it exited. */
  dispose(): Promise<void>;
}

export interface Sandbox {
  readonly mode: 'on' | 'off';
  /** Wraps a command in the sandbox ('off': the command as it is, with the request's env). Rejects when it cannot. */
  wrap(request: SandboxRequest, file: string, args: readonly string[]): Promise<SandboxedCommand>;
}

/** Whether the sandbox can start here: `problems` say what to do (`apt-get install bubblewrap`). */
export interface SandboxAvailability {
  available: boolean;
  problems: string[];
}

/** How `flotilla run` refuses on macOS, followed by MACOS_SANDBOX_STATUS. */
export const SANDBOX_UNAVAILABLE_MACOS =
  'agents run in an OS sandbox, which macOS does not have yet — set "sandbox": "off" in flotilla.config.json to run them unsandboxed (not recommended)';

/** How a refusal to start without the sandbox begins (`flotilla run`, the demo, the control plane). */
export const SANDBOX_UNAVAILABLE =
  'agents run in an OS sandbox (bubblewrap), which cannot start here — install it (Debian/Ubuntu: apt-get install bubblewrap) or set "sandbox": "off" in flotilla.config.json (not recommended)';

/**
 * What applies on macOS (README.md "Platforms"): `flotilla run`, `doctor` and the sandbox's own refusal say
 * this, word for word.
 */
export const MACOS_SANDBOX_STATUS =
  'macOS has no OS sandbox for agents yet, so `flotilla run` refuses there unless "sandbox": "off" is set in flotilla.config.json (agents then run unsandboxed, with only the path guard and the bash validator in front of them). Not sandbox-exec (Seatbelt) yet: the guarantees rest on Linux namespaces (a PID namespace that hides every other process, a network namespace that reaches only forwarded ports, mounts that hide paths), Seatbelt works by rules instead, its man page marks sandbox-exec deprecated, and no macOS machine tests it here';

/** What `flotilla run`, the log and the dashboard say when the user turned the sandbox off. */
export const SANDBOX_OFF_NOTICE =
  'the OS sandbox is OFF ("sandbox": "off" in flotilla.config.json): agents can read and write everything your user can';
