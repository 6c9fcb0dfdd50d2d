/**
 * The providers `flotilla demo --provider` offers, the default first: `local` (SQLite tracker, branches,
 * `npm test` as checks) and `github` against the built-in fake GitHub (start-demo-github.ts).
 */
export const DEMO_PROVIDERS = ['local', 'github'] as const;
export type DemoProvider = (typeof DEMO_PROVIDERS)[number];

export const isDemoProvider = (value: string): value is DemoProvider =>
  (DEMO_PROVIDERS as readonly string[]).includes(value);
