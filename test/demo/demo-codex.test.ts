import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { runFlotilla } from '../../src/cli/support/run-flotilla.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';

/** Any connection codex or git would open outside 127.0.0.1 arrives at the model server and is refused. */
const proxyTripwire = (url: string): Record<string, string> =>
  Object.fromEntries(
    ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].flatMap((name) => [
      [name, url],
      [name.toLowerCase(), url],
    ]),
  );

describe('flotilla demo --runtime codex', () => {
  it('runs the same loop with every role on the real codex binary against the scripted Responses endpoint', async () => {
    const lines: string[] = [];
    const outcome = await runDemo({
      keep: true,
      runtime: 'codex',
      print: (line) => lines.push(line),
      logger: createRecordingLogger(),
      agentEnv: proxyTripwire,
    });
    try {
      const output = lines.join('\n');
      expect(outcome.ok, output).toBe(true);
      expect(outcome.modelServerProblems, output).toEqual([]);
      expect(output).toContain('(every role on codex)');
      expect(
        outcome.runs.map((run) => [
          run.role,
          run.role === 'planner' ? '-' : run.workItemID,
          run.status,
          run.runtime,
        ]),
      ).toEqual([
        ['planner', '-', 'completed', 'scripted'],
        ['implementor', '1', 'completed', 'scripted'],
        ['reviewer', '1', 'completed', 'scripted'],
        ['implementor', '1', 'completed', 'scripted'],
        ['reviewer', '1', 'completed', 'scripted'],
        ['implementor', '2', 'completed', 'scripted'],
        ['reviewer', '2', 'completed', 'scripted'],
      ]);
      expect(output).toContain('reviewer finished #1: needs-changes');
      for (const run of outcome.runs) {
        expect(run.logFilePath && existsSync(run.logFilePath)).toBeTruthy();
        // codex's own events, not the Claude SDK's: the files were written by exec_command.
        if (run.role === 'implementor')
          expect(readFileSync(run.logFilePath!, 'utf8')).toContain('FLOTILLA_EOF');
      }
      // The reworked revision carries the reviewer's requested change; checks passed on it.
      const greet = execFileSync('git', ['show', 'flotilla/1:src/greet.js'], {
        cwd: outcome.repoRoot,
      }).toString();
      expect(greet).toContain('name.trim()');
      expect(
        execFileSync('git', ['show', 'flotilla/2:src/farewell.js'], { cwd: outcome.repoRoot }).toString(),
      ).toContain('Goodbye');
      expect(output).toMatch(
        /revision 3 on branch flotilla\/1 @ [0-9a-f]{8} \(checks success; reviews: DISMISSED, APPROVED\)/,
      );
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: outcome.repoRoot }).toString()).toBe('');
    } finally {
      await rm(outcome.repoRoot, { recursive: true, force: true });
    }
  }, 240_000);

  it('refuses an unknown runtime in one line listing the choices, before creating anything', async () => {
    const result = await runFlotilla(process.cwd(), ['demo', '--runtime', 'gemini']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "flotilla demo: unknown --runtime 'gemini'; expected one of: claude, codex, cli\n",
    );
    expect(result.stdout).toBe('');
  });
});
