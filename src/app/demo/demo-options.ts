import type { AgentRun } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { ControlPlane } from '../create-control-plane.ts';
import type { DemoProvider } from './demo-providers.ts';

export interface DemoOptions {
  keep: boolean;
  /** Every role's runtime: one of DEMO_RUNTIMES (default: the first, the registry's default runtime). */
  runtime?: string;
  /**
   * Where work items, revisions and specs live: `local` (default: SQLite, branches, `npm test` as checks) or
   * `github` (the built-in fake GitHub on 127.0.0.1: issues, pull requests, a CI that passes; no account).
   */
  provider?: DemoProvider;
  /** With `github`: the fake delivers webhooks, polled at once (default true); false: polls only. */
  webhooks?: boolean;
  /** Progress lines and the summary. */
  print: (line: string) => void;
  logger: Logger;
  /** Added to every agent's environment (tests: a proxy tripwire pointing at the model server). */
  agentEnv?: (modelServerUrl: string) => Readonly<Record<string, string>>;
  /** Seconds before the demo gives up (not when watched: the watcher decides when it ends). */
  timeout?: number;
  /**
   * Hands the control plane (engine not started) to a watcher — the dashboard — instead of printing progress
   * and waiting until idle; the demo ends when the watcher returns.
   */
  watch?: (controlPlane: ControlPlane, repoRoot: string) => Promise<void>;
}

export interface DemoOutcome {
  ok: boolean;
  repoRoot: string;
  runs: AgentRun[];
  approved: number;
  /** What the scripted model server found wrong (unmet expectations, connections it refused). */
  modelServerProblems: string[];
}
