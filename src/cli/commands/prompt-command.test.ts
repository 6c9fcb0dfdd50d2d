/**
 * `flotilla prompt <role> <item>` (issue #28 §4) on a real repository's local tracker: the prompt a run would
 * get now, with the template the run would use — an investigation's item runs in its mode, so its prompt
 * is the `investigate` template, not the implementor's (docs/prompt-templates.md) — and the clear errors for an
 * unknown role, a missing item and an invalid template (file, line and column).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

let repo: TempGitRepo;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const prompts = () => join(repo.root, '.flotilla/prompts');

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  expect((await flotilla('init', '--scripted')).code).toBe(0);
  const created = [
    await flotilla('work', 'create', '--title', 'Add greet', '--body', 'Say hello.'),
    await flotilla(
      'work',
      'create',
      '--title',
      'Why does greet crash?',
      '--body',
      'It throws on an empty name.',
      '--label',
      'task:investigate',
    ),
  ];
  for (const run of created) expect(run.code, run.stderr).toBe(0);
  mkdirSync(prompts(), { recursive: true });
  writeFileSync(join(prompts(), 'implementor.md'), 'IMPLEMENT #{taskId}: {taskTitle}\n\n{memories}\n');
  writeFileSync(join(prompts(), 'investigate.md'), 'INVESTIGATE #{taskId}: {taskTitle}\n\n{memories}\n');
});
afterAll(() => repo.cleanup());

describe('flotilla prompt', () => {
  it("prints an item's prompt from its role's template, with the memories section", async () => {
    const shown = await flotilla('prompt', 'implementor', '1');
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout.startsWith('IMPLEMENT #1: Add greet\n\n## Memories\n')).toBe(true);
    expect(shown.stdout.endsWith('\n\nNo memories yet.\n')).toBe(true);
  });

  it("an investigation's item (`task:investigate`) gets its mode's template, as its run would", async () => {
    const shown = await flotilla('prompt', 'implementor', '2');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.startsWith('INVESTIGATE #2: Why does greet crash?\n\n## Memories\n')).toBe(true);
  });

  it('an unknown role, a missing item or an invalid template is exit 2 saying what is wrong', async () => {
    const role = await flotilla('prompt', 'tester', '1');
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("unknown role 'tester': expected one of planner, implementor, reviewer");
    const missing = await flotilla('prompt', 'implementor');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('flotilla prompt implementor <item>');
    writeFileSync(join(prompts(), 'reviewer.md'), 'Review #{taskId}\n\n{ciFailure}\n');
    const invalid = await flotilla('prompt', 'implementor', '1');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('.flotilla/prompts/reviewer.md:3:1');
    expect(invalid.stderr).toContain('{ciFailure}');
  });
});
