/** The runtimes `flotilla demo --runtime` offers; each has its scenario next to run-demo.ts. */
export const DEMO_RUNTIMES = ['claude', 'codex'] as const;
export type DemoRuntime = (typeof DEMO_RUNTIMES)[number];

export const isDemoRuntime = (value: string): value is DemoRuntime =>
  (DEMO_RUNTIMES as readonly string[]).includes(value);
