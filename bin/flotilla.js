#!/usr/bin/env node
// Launcher: Flotilla ships TypeScript sources and runs them through tsx's ESM loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv);
