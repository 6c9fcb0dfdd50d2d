#!/usr/bin/env node
// Launcher: Flotilla ships TypeScript sources and runs them through tsx's ESM loader (no build step).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Flotilla's own tsconfig, not the one in the user's working directory (which would change how our sources,
// the dashboard's JSX among them, are compiled).
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });

// React picks its build when first loaded: the production one renders the dashboard at ~60% of the CPU
// (npm run bench:tui). NODE_ENV is set only while our modules load and then put back, so checks commands and
// agents (which inherit the environment) see the user's own value.
const userNodeEnv = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
const { runCli } = await import('../src/cli/main.ts');
if (userNodeEnv === undefined) delete process.env.NODE_ENV;
else process.env.NODE_ENV = userNodeEnv;
process.exitCode = await runCli(process.argv);
