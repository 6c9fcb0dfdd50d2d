import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The command that runs the scripted demo agent CLI (demo-agent-cli.ts), for a runtime whose demo runs an
 * agent program (its descriptor's `demo.agentProgram`). Compiled, it is the `.js` next to this file in dist/;
 * from the sources, node runs the `.ts` through tsx's loader (by absolute URL: the agent runs in a worktree,
 * where `tsx` would not resolve).
 */
export function buildDemoAgentProgram(): string[] {
  const fromSources = import.meta.filename.endsWith('.ts');
  const agent = join(import.meta.dirname, fromSources ? 'demo-agent-cli.ts' : 'demo-agent-cli.js');
  return fromSources
    ? [process.execPath, '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, agent]
    : [process.execPath, agent];
}
