/**
 * Issue #31 point 5: `flotilla run` reports what changed since the last run, not everything it finds. The
 * first run describes each item, revision and spec as it appears; the next one, with nothing changed, says so
 * in one line (the scaffold's draft example is the second spec); after a human moves an item and edits the
 * spec, only those two get a line.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_GIT_IDENTITY_ENV } from '../../src/cli/support/run-flotilla.ts';
import { initScriptedRepository, type ScriptedRepository } from '../support/init-scripted-repository.ts';

let repo: ScriptedRepository | undefined;
afterEach(async () => {
  await repo?.remove();
  repo = undefined;
});

/** The progress lines printed before `flotilla running in …` (the start-up sync), without their times. */
function startupLines(stdout: string): string[] {
  const lines = stdout.split('\n');
  const end = lines.findIndex((line) => line.startsWith('flotilla running in'));
  return lines.slice(0, end).map((line) => line.replace(/^\d\d:\d\d:\d\d /, ''));
}

describe('start-up lines of `flotilla run`', () => {
  it('name only what changed since the last run', async () => {
    repo = await initScriptedRepository();
    const first = await repo.flotilla(['run', '--until-idle']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/spec docs\/specs\/my-feature\.md added \(approved\)/);

    const second = await repo.flotilla(['run', '--until-idle']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(startupLines(second.stdout)).toEqual([
      'unchanged since the last run: 1 work item, 1 revision, 2 specs',
    ]);

    expect((await repo.flotilla(['work', 'transition', '1', 'blocked'])).code).toBe(0);
    appendFileSync(join(repo.root, 'docs/specs/my-feature.md'), '\nA later note.\n');
    execFileSync('git', ['commit', '--quiet', '-am', 'Spec: a note'], {
      cwd: repo.root,
      env: { ...process.env, ...TEST_GIT_IDENTITY_ENV },
    });
    const third = await repo.flotilla(['run', '--until-idle']);
    const lines = startupLines(third.stdout);
    expect(lines).toContain('work item #1 approved → blocked since the last run');
    expect(lines).toContain('spec docs/specs/my-feature.md modified since the last run (approved)');
    expect(lines).toContain('unchanged since the last run: 1 revision, 1 spec');
    expect(lines.join('\n')).not.toMatch(/created|added/);
  }, 240_000);
});
