import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';

describe('flotilla demo --runtime cli', () => {
  it('runs the same loop with every role on the CLI runtime, played by the demo agent CLI', async () => {
    const lines: string[] = [];
    const outcome = await runDemo({
      keep: true,
      runtime: 'cli',
      print: (line) => lines.push(line),
      logger: createRecordingLogger(),
    });
    try {
      const output = lines.join('\n');
      expect(outcome.ok, output).toBe(true);
      expect(output).toContain('every role on cli (the scripted demo agent CLI; no model server)');
      expect(
        outcome.runs.map((run) => [
          run.role,
          run.role === 'planner' ? '-' : run.workItemID,
          run.status,
          run.runtime,
        ]),
      ).toEqual([
        ['planner', '-', 'completed', 'cli:custom'],
        ['implementor', '1', 'completed', 'cli:custom'],
        ['reviewer', '1', 'completed', 'cli:custom'],
        ['implementor', '1', 'completed', 'cli:custom'],
        ['reviewer', '1', 'completed', 'cli:custom'],
        ['implementor', '2', 'completed', 'cli:custom'],
        ['reviewer', '2', 'completed', 'cli:custom'],
      ]);
      expect(output).toContain('reviewer finished #1: needs-changes');
      for (const run of outcome.runs) {
        expect(run.logFilePath && existsSync(run.logFilePath)).toBeTruthy();
        // The agent's own output lines, captured by the CLI runtime.
        if (run.role === 'implementor')
          expect(readFileSync(run.logFilePath!, 'utf8')).toContain('committed: ');
      }
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
});
