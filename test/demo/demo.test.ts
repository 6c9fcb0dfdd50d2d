import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFlotilla } from '../../src/cli/support/run-flotilla.ts';
import { expectDemoCosts, expectDemoWorktreesSettled, withKeptDemo } from '../support/demo-loop.ts';

describe('flotilla demo', () => {
  it('plans two dependent items, implements them, reviews one twice after requested changes, and approves both', async () => {
    await withKeptDemo({}, async (demo) => {
      const { outcome, output } = demo;
      expect(outcome.ok, output).toBe(true);
      expect(outcome.approved).toBe(2);
      expect(
        outcome.runs.map((run) => [run.role, run.role === 'planner' ? '-' : run.workItemID, run.status]),
      ).toEqual([
        ['planner', '-', 'completed'],
        ['implementor', '1', 'completed'],
        ['reviewer', '1', 'completed'],
        ['implementor', '1', 'completed'],
        ['reviewer', '1', 'completed'],
        ['implementor', '2', 'completed'],
        ['reviewer', '2', 'completed'],
      ]);
      expect(output).toContain('reviewer finished #1: needs-changes');
      expect(output).toContain('work item #2 pending → ready');
      expectDemoCosts(demo);
      // Every run left a transcript; worktrees and their branches are gone.
      for (const run of outcome.runs) {
        expect(run.logFilePath && existsSync(run.logFilePath)).toBeTruthy();
        expect(readFileSync(run.logFilePath!, 'utf8')).toContain('Outcome: completed');
      }
      expectDemoWorktreesSettled(demo);
      // The reworked revision is a real branch carrying the reviewer's requested change; checks passed on it.
      const greet = execFileSync('git', ['show', 'flotilla/1:src/greet.js'], {
        cwd: outcome.repoRoot,
      }).toString();
      expect(greet).toContain('name.trim()');
      expect(output).toMatch(
        /revision r3 on branch flotilla\/1 @ [0-9a-f]{8} \(checks passed; reviews: changes requested, approved\)/,
      );
      // The user's checkout is untouched.
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: outcome.repoRoot }).toString()).toBe('');

      // Merged, the item keeps its history: the merged revision, its checks and both reviews with their verdicts.
      expect((await runFlotilla(outcome.repoRoot, ['merge', '1'])).code).toBe(0);
      const shown = await runFlotilla(outcome.repoRoot, ['work', 'show', '1']);
      expect(shown.stdout).not.toContain('Revision: none');
      expect(shown.stdout).toMatch(
        /^Revision r3 \(merged\) on flotilla\/1 at [0-9a-f]{12}\n {2}checks: passed/m,
      );
      expect(shown.stdout).toMatch(
        /review \d+ \(round 1\) by flotilla: changes requested \(replaced by a later review\)[\s\S]*review \d+ \(round 2\) by flotilla: approved\n/,
      );
      const json = JSON.parse(
        (await runFlotilla(outcome.repoRoot, ['work', 'show', '1', '--json'])).stdout,
      ) as {
        revision: { id: string; state: string; reviews: { verdict: string; round: number; state: string }[] };
      };
      expect(json.revision.state).toBe('merged');
      expect(json.revision.reviews.map(({ verdict, round, state }) => [verdict, round, state])).toEqual([
        ['CHANGES_REQUESTED', 1, 'DISMISSED'],
        ['APPROVED', 2, 'APPROVED'],
      ]);
    });
  }, 180_000);
});
