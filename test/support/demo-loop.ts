import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { expect } from 'vitest';
import type { DemoOptions, DemoOutcome } from '../../src/app/demo/demo-options.ts';
import { runDemo } from '../../src/app/demo/run-demo.ts';
import { createRecordingLogger, type LogRecord } from '../../src/logging/logger.ts';

/** A finished demo whose repository is kept for the checks, and the lines it printed. */
export interface KeptDemo {
  outcome: DemoOutcome;
  /** Every printed line, joined by newlines. */
  output: string;
  /** What the demo logged. */
  logs: LogRecord[];
}

/**
 * Runs `flotilla demo` in-process with `keep: true` (printing into a buffer, logging to a recording logger),
 * hands the outcome to `check`, then removes the demo repository whatever `check` did.
 */
export async function withKeptDemo(
  options: Omit<DemoOptions, 'keep' | 'print' | 'logger'>,
  check: (demo: KeptDemo) => void | Promise<void>,
): Promise<void> {
  const lines: string[] = [];
  const logger = createRecordingLogger();
  const outcome = await runDemo({
    ...options,
    keep: true,
    print: (line) => lines.push(line),
    logger,
  });
  try {
    await check({ outcome, output: lines.join('\n'), logs: logger.records });
  } finally {
    await rm(outcome.repoRoot, { recursive: true, force: true });
  }
}

/**
 * The demo's seven runs — planner, two rounds on #1 (changes requested, then approved), one on #2 — each
 * completed and recorded under `runtime`, and the reviewer's request for changes in the output.
 */
export function expectDemoRuns(demo: KeptDemo, runtime: string): void {
  expect(
    demo.outcome.runs.map((run) => [
      run.role,
      run.role === 'planner' ? '-' : run.workItemID,
      run.status,
      run.runtime,
    ]),
  ).toEqual([
    ['planner', '-', 'completed', runtime],
    ['implementor', '1', 'completed', runtime],
    ['reviewer', '1', 'completed', runtime],
    ['implementor', '1', 'completed', runtime],
    ['reviewer', '1', 'completed', runtime],
    ['implementor', '2', 'completed', runtime],
    ['reviewer', '2', 'completed', runtime],
  ]);
  expect(demo.output).toContain('reviewer finished #1: needs-changes');
}

/** Every run left a transcript; each implementor's holds `implementorMarker` (what its agent really did). */
export function expectDemoTranscripts(demo: KeptDemo, implementorMarker: string): void {
  for (const run of demo.outcome.runs) {
    expect(run.logFilePath && existsSync(run.logFilePath)).toBeTruthy();
    if (run.role === 'implementor')
      expect(readFileSync(run.logFilePath!, 'utf8')).toContain(implementorMarker);
  }
}

/**
 * The demo's revisions are real branches: the reworked #1 carries the reviewer's requested change, #2 its
 * file; checks passed on revision r3 (after a dismissed review, approved); the user's checkout is untouched.
 */
export function expectDemoRevisions(demo: KeptDemo): void {
  const git = (args: string[]) => execFileSync('git', args, { cwd: demo.outcome.repoRoot }).toString();
  expect(git(['show', 'flotilla/1:src/greet.js'])).toContain('name.trim()');
  expect(git(['show', 'flotilla/2:src/farewell.js'])).toContain('Goodbye');
  expect(demo.output).toMatch(
    /revision r3 on branch flotilla\/1 @ [0-9a-f]{8} \(checks passed; reviews: changes requested, approved\)/,
  );
  expect(git(['status', '--porcelain'])).toBe('');
}

/**
 * Every run has a cost, derived from its made-up tokens at a real model's price, and the summary shows it
 * marked `(scripted)` (no real money was spent), one line per run, then their total.
 */
export function expectDemoCosts(demo: KeptDemo): void {
  for (const run of demo.outcome.runs) expect(run.usage?.costUSD).toBeGreaterThan(0);
  expect(demo.output.match(/^ {4}\w.* \$\d+\.\d{4} \(scripted\)$/gm)).toHaveLength(demo.outcome.runs.length);
  // The total, and (kept) where to look next.
  const total = demo.outcome.runs.reduce((sum, run) => sum + (run.usage?.costUSD ?? 0), 0);
  expect(demo.output).toContain(
    `  total: ${demo.outcome.runs.length} agent runs, $${total.toFixed(4)} (scripted)`,
  );
  expect(demo.output).toContain(`Look around: cd ${demo.outcome.repoRoot} && flotilla work list`);
}

/**
 * Runs after the first took a worktree prepared ahead (`worktree.prepareAhead`, the default), and once the
 * demo closed nothing of the agents' is left: no worktree but the user's checkout, no `agent/…` branch, no
 * `.worktrees/`.
 */
export function expectDemoWorktreesSettled(demo: KeptDemo): void {
  const git = (args: string[]) => execFileSync('git', args, { cwd: demo.outcome.repoRoot }).toString();
  // Taken as prepared, or refreshed to the tip first when a merge moved it.
  const preparedAhead = demo.logs.filter((record) =>
    record.message.startsWith('Worktree created (prepared ahead'),
  );
  expect(preparedAhead.length).toBeGreaterThan(0);
  for (const record of preparedAhead) expect(String(record.fields.branchName)).toMatch(/^agent\/ahead\//);
  expect(git(['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
  expect(git(['for-each-ref', '--format=%(refname)', 'refs/heads/agent/'])).toBe('');
  expect(existsSync(`${demo.outcome.repoRoot}/.worktrees`)).toBe(false);
}
