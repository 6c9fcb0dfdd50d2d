import type { PhaseListener } from '../../src/engine/runtime-contract/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createSandbox } from '../../src/sandbox/create-sandbox.ts';
import type { Sandbox } from '../../src/sandbox/sandbox-types.ts';
import { createWorktreeManager, type WorktreeManager } from '../../src/workspace/create-worktree-manager.ts';

/** One runtime's side of the bench: the same one-step scenario, bare and through the runtime. */
export interface OverheadPair {
  bareLabel: string;
  runtimeLabel: string;
  /** The repository both sides work in (the bare side's worktrees are made from it). */
  repoRoot: string;
  /**
   * The bare SDK or CLI answering the scenario in `cwd`; it reports the phases it can see (spawn to first
   * message…) under the same names as the runtime, so the profile compares like with like.
   */
  bare(cwd: string, onPhase: PhaseListener): Promise<void>;
  /** Through Flotilla's runtime; `sandboxed`: in the OS sandbox (src/sandbox/), as the control plane runs it. */
  throughRuntime(variant: RuntimeVariant): Promise<void>;
  /** Whether `variant.commands` is honoured (the agent runs that many Bash commands before it answers). */
  runsCommands: boolean;
  /** Until the runtime's background git work (removal behind, the spare ahead) is done. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface OverheadPairOptions {
  /** Reported by the runtime for each phase of a run (RuntimeAdapterConfig.onPhase). */
  onPhase: PhaseListener;
  /** The control plane's default (`worktree.prepareAhead`): a spare worktree ahead, removal behind. */
  prepareAhead: boolean;
  /**
   * Claude: `lookup` — the bare `query()` with the SDK's defaults, which look up the CLI binary on every
   * call; `given` — passed the binary the runtime finds once.
   */
  bareBinary: 'lookup' | 'given';
}

export interface RuntimeVariant {
  sandboxed: boolean;
  /** Bash commands (`true`) the agent runs before it answers; 0 for the plain scenario. */
  commands: number;
}

export type MakeOverheadPair = (options: OverheadPairOptions) => Promise<OverheadPair>;

/** The worktree manager the control plane gives every runtime, for the bench's repository. */
export function createBenchWorktrees(repoRoot: string, prepareAhead: boolean): WorktreeManager {
  return createWorktreeManager({
    repoRoot,
    defaultBranch: 'main',
    setupCommand: 'none',
    logger: silentLogger,
    prepareAhead,
    removeBehind: prepareAhead,
  });
}

/** The OS sandbox as the control plane makes it by default (on, nothing widened). */
export function createBenchSandbox(): Sandbox {
  return createSandbox({ mode: 'on', networkAllow: [], passEnv: [], allowRead: [], denyRead: [] });
}

/** The one step every runtime is scripted to answer: an implementor with nothing to do. */
export const BLOCKED_OUTPUT = { role: 'implementor', outcome: 'blocked', summary: 'Nothing to do.' };

export const BENCH_PROMPT = '## Work Item #1 — Bench item\n\nDo nothing.\n';

export function implementorParams() {
  return {
    role: 'implementor' as const,
    sessionID: crypto.randomUUID(),
    prompt: BENCH_PROMPT,
    workItemID: '1',
    branchName: 'flotilla/1',
  };
}

/** Throws unless a run's result is the scripted blocked implementor. */
export function expectBlocked(result: { role?: string; outcome?: string }): void {
  if (result.role !== 'implementor' || result.outcome !== 'blocked')
    throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}

/** Reports the phases a bare side can see, as laps from the moment it starts. */
export function createBareLaps(sessionID: string, onPhase: PhaseListener) {
  let last = performance.now();
  return (phase: string) => {
    const now = performance.now();
    onPhase({ sessionID, phase, ms: now - last });
    last = now;
  };
}
