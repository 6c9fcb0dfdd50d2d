import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../process/run-command.ts';

const LOADER = fileURLToPath(new URL('./load-dashboard.ts', import.meta.url));

/** Loads the dashboard in a fresh process (module caches are per process) and reports what got loaded. */
const PROBE = `
import { createRequire } from 'node:module';
const { loadDashboard } = await import(process.env.LOADER);
const runDashboard = await loadDashboard();
const require = createRequire(import.meta.url);
// Node lists both builds (it reads the re-exports of react/index.js); only the one React chose is evaluated.
const reactBuilds = Object.entries(require.cache)
  .filter(([path, module]) => module?.loaded && /react[\\\\/]cjs[\\\\/]react\\.(production|development)/.test(path))
  .map(([path]) => path);
const { default: inkSeesCi } = await import('is-in-ci');
console.log(JSON.stringify({
  loaded: typeof runDashboard,
  reactBuilds: reactBuilds.map((path) => path.match(/react\\.(production|development)/)[1]),
  inkSeesCi,
  env: { NODE_ENV: process.env.NODE_ENV ?? null, CI: process.env.CI ?? null, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION ?? null },
}));
`;

async function probe(env: Record<string, string>) {
  const { NODE_ENV: _nodeEnv, CI: _ci, CONTINUOUS_INTEGRATION: _continuous, ...base } = process.env;
  const result = await runCommand(
    process.execPath,
    ['--import', 'tsx/esm', '--input-type=module', '--eval', PROBE],
    { cwd: process.cwd(), env: { ...base, ...env, LOADER }, timeoutMs: 60_000 },
  );
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as {
    loaded: string;
    reactBuilds: string[];
    inkSeesCi: boolean;
    env: Record<string, string | null>;
  };
}

describe('loadDashboard', () => {
  it("loads React's production build and an Ink that draws where CI is set, then puts the user's values back", async () => {
    const report = await probe({ NODE_ENV: 'development', CI: 'true', CONTINUOUS_INTEGRATION: '1' });
    expect(report.loaded).toBe('function');
    expect(report.reactBuilds).toEqual(['production']);
    expect(report.inkSeesCi).toBe(false);
    expect(report.env).toEqual({ NODE_ENV: 'development', CI: 'true', CONTINUOUS_INTEGRATION: '1' });
  });

  it('leaves unset variables unset', async () => {
    const report = await probe({});
    expect(report.reactBuilds).toEqual(['production']);
    expect(report.env).toEqual({ NODE_ENV: null, CI: null, CONTINUOUS_INTEGRATION: null });
  });
});
