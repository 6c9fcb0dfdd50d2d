#!/usr/bin/env node
// Launcher: Flotilla ships TypeScript sources and runs them through tsx's ESM loader (no build step).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Flotilla's own tsconfig, not the one in the user's working directory (which would change how our sources,
// the dashboard's JSX among them, are compiled).
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });

// Some libraries read the environment once, when first loaded. These values hold only while our modules load
// and are then put back, so checks commands and agents (which inherit the environment) see the user's own:
// - NODE_ENV=production: React's production build renders the dashboard at ~60% of the CPU (npm run bench:tui).
// - CI / CONTINUOUS_INTEGRATION unset: with either set, Ink draws nothing until it exits. The dashboard only
//   opens on a terminal (stdin and stdout TTYs), so it must draw even where CI is set (or exported by a shell).
const loadTimeEnv = { NODE_ENV: 'production', CI: undefined, CONTINUOUS_INTEGRATION: undefined };
const userEnv = Object.fromEntries(Object.keys(loadTimeEnv).map((key) => [key, process.env[key]]));
setEnv(loadTimeEnv);
const { runCli } = await import('../src/cli/main.ts');
setEnv(userEnv);
process.exitCode = await runCli(process.argv);

/** Sets each variable, or removes it when the value is undefined. */
function setEnv(values) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}
