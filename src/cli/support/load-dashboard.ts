import type { runControlPlaneDashboard } from './run-control-plane-dashboard.ts';

/**
 * Variables that Ink and React read once, when first loaded, and the values the dashboard needs then:
 * - NODE_ENV=production: React's production build renders at ~60% of the CPU of the development one
 *   (npm run bench:tui).
 * - CI and CONTINUOUS_INTEGRATION unset: with either set, Ink draws nothing until it exits. The dashboard only
 *   opens on a terminal, so it must draw even where CI is set (CI machines, or a shell that exports it).
 */
const LOAD_TIME_ENV: Readonly<Record<string, string | undefined>> = {
  NODE_ENV: 'production',
  CI: undefined,
  CONTINUOUS_INTEGRATION: undefined,
};

/**
 * Loads the dashboard (Ink, React and the components: about half a second, which the commands that never show
 * it do not pay). The variables above hold only while the modules load and are then put back, so checks
 * commands and agents (which inherit the environment) see the user's own values: call this before anything
 * starts processes.
 */
export async function loadDashboard(): Promise<typeof runControlPlaneDashboard> {
  const userValues = Object.fromEntries(Object.keys(LOAD_TIME_ENV).map((key) => [key, process.env[key]]));
  setEnv(LOAD_TIME_ENV);
  try {
    return (await import('./run-control-plane-dashboard.ts')).runControlPlaneDashboard;
  } finally {
    setEnv(userValues);
  }
}

/** Sets each variable, or removes it when the value is undefined. */
function setEnv(values: Readonly<Record<string, string | undefined>>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}
