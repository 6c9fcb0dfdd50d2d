import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';

describe('flotilla demo --provider github', () => {
  it('runs the same loop against the built-in fake GitHub: issues, pull requests, its CI, reviews', async () => {
    const lines: string[] = [];
    const outcome = await runDemo({
      keep: true,
      provider: 'github',
      print: (line) => lines.push(line),
      logger: createRecordingLogger(),
    });
    try {
      const output = lines.join('\n');
      expect(outcome.ok, output).toBe(true);
      expect(outcome.modelServerProblems, output).toEqual([]);
      expect(output).toMatch(
        /fake GitHub: http:\/\/127\.0\.0\.1:\d+ \(acme\/widgets; its CI passes every head; webhooks delivered\)/,
      );
      expect(outcome.approved).toBe(2);
      expect(output).toMatch(/\] GitHub rate limit: \d+\/5000 requests left, resets /);
      // Issue and pull request numbers share GitHub's sequence: the two issues, then their pull requests.
      expect(output).toMatch(
        /#1 approved +Add greet\(name\) +— revision PR #3 on branch flotilla\/1 @ \w+ \(checks passed; reviews: dismissed, approved\)/,
      );
      expect(output).toMatch(
        /#2 approved +Add farewell\(name\) +— revision PR #4 on branch flotilla\/2 @ \w+ \(checks passed; reviews: approved\)/,
      );
      expect(output).toContain('reviewer finished #1: needs-changes');
    } finally {
      await rm(outcome.repoRoot, { recursive: true, force: true });
    }
  }, 240_000);
});
