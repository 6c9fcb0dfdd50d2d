#!/usr/bin/env node
// Launcher: Flotilla ships TypeScript sources and runs them through tsx's ESM loader (no build step).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Flotilla's own tsconfig, not the one in the user's working directory (which would change how our sources,
// the dashboard's JSX among them, are compiled).
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });

const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv);
