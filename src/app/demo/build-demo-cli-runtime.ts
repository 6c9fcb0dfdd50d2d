import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CliRuntimeSettings } from '../../config/index.ts';

/**
 * The CLI runtime settings of `flotilla demo --runtime cli`: a `custom` preset whose program is the demo
 * agent CLI (demo-agent-cli.ts; the prompt on stdin, no session to resume). Compiled, it is the `.js` next
 * to this file in dist/; from the sources, node runs the `.ts` through tsx's loader (by absolute URL: the
 * agent runs in a worktree, where `tsx` would not resolve).
 */
export function buildDemoCliRuntime(): CliRuntimeSettings {
  const fromSources = import.meta.filename.endsWith('.ts');
  const agent = join(import.meta.dirname, fromSources ? 'demo-agent-cli.ts' : 'demo-agent-cli.js');
  const program = fromSources
    ? [process.execPath, '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, agent]
    : [process.execPath, agent];
  return {
    runtime: 'cli',
    preset: 'custom',
    program,
    // Its usage line is the `claude` CLI's stream-json form (demo-agent-cli.ts).
    custom: {
      start: ['demo-agent'],
      resume: null,
      sessionId: { from: 'none' },
      usage: 'claude-stream-json',
    },
    protectedPaths: [],
  };
}
