/**
 * The runtimes `flotilla demo --runtime` offers: `claude` and `codex` against the scripted model server
 * (their scenarios are next to run-demo.ts), `cli` with the scripted demo agent CLI (demo-agent-cli.ts).
 */
export const DEMO_RUNTIMES = ['claude', 'codex', 'cli'] as const;
export type DemoRuntime = (typeof DEMO_RUNTIMES)[number];

export const isDemoRuntime = (value: string): value is DemoRuntime =>
  (DEMO_RUNTIMES as readonly string[]).includes(value);
