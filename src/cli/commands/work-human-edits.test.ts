import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

let repo: TempGitRepo;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const ok = async (...args: string[]) => {
  const result = await flotilla(...args);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
  return result.stdout;
};
const json = async (...args: string[]) => JSON.parse(await ok(...args));

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n', '.gitignore': '.flotilla/\n' });
});
afterEach(() => repo.cleanup());

describe('flotilla work create --hold, edit, comment, close, reopen and list filters', {
  timeout: 60_000,
}, () => {
  it('holds a new item as blocked until dispatched, with a comment saying how to start it', async () => {
    expect(await ok('work', 'create', '--title', 'Later', '--hold')).toBe(
      'created #1 (blocked task): Later\nheld: `flotilla work dispatch 1` starts it\n',
    );
    const held = await json('work', 'show', '1', '--json');
    expect(held).toMatchObject({ status: 'blocked', labels: ['task:implement', 'status:blocked'] });
    expect(held.comments[0].body).toContain('flotilla work dispatch 1');
    expect(await ok('work', 'dispatch', '1')).toContain('#1 blocked → ready');
    const both = await flotilla('work', 'create', '--title', 'x', '--hold', '--label', 'status:ready');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --hold or a status:* label');
  });

  it('creates an item on a runtime (runtime:<name> label) and edits it to another, replacing the first', async () => {
    await ok('work', 'create', '--title', 'On codex', '--label', 'runtime:codex');
    expect(await json('work', 'show', '1', '--json')).toMatchObject({
      runtime: 'codex',
      labels: ['task:implement', 'runtime:codex'],
    });
    await ok('work', 'edit', '1', '--add-label', 'runtime:cli:aider');
    expect(await json('work', 'show', '1', '--json')).toMatchObject({
      runtime: 'cli:aider',
      labels: ['task:implement', 'runtime:cli:aider'],
    });
  });

  it('edits title, body, priority, complexity, labels and blockers in one go, and comments as the git author', async () => {
    await ok('work', 'create', '--title', 'Blocker');
    await ok('work', 'create', '--title', 'Other');
    await ok(
      'work',
      'create',
      '--title',
      'Parser',
      '--label',
      'priority:low',
      '--label',
      'area:io',
      '--blocked-by',
      '1',
    );
    const edited = await json(
      'work',
      'edit',
      '#3',
      '--title',
      'Parse input',
      '--body',
      'New body',
      '--priority',
      'high',
      '--complexity',
      'low',
      '--add-label',
      'area:core',
      '--remove-label',
      'area:io',
      '--add-blocked-by',
      '2',
      '--remove-blocked-by',
      '1',
      '--json',
    );
    expect(edited).toMatchObject({
      id: '3',
      title: 'Parse input',
      status: 'pending',
      priority: 'high',
      complexity: 'low',
      blockedBy: ['2'],
    });
    const shown = await json('work', 'show', '3', '--json');
    expect(shown.body).toBe('New body');
    expect(shown.labels).toEqual(['task:implement', 'area:core', 'priority:high', 'complexity:low']);
    await ok('work', 'edit', '3', '--priority', 'none', '--add-label', 'task:refinement');
    expect(await json('work', 'show', '3', '--json')).toMatchObject({
      priority: null,
      kind: 'refinement',
      body: 'New body',
    });

    expect(await ok('work', 'comment', '3', '--body', 'Looks right to me')).toBe(
      'commented on #3 as Flotilla Test\n',
    );
    expect((await json('work', 'show', '3', '--json')).comments).toEqual([
      expect.objectContaining({ author: 'Flotilla Test', body: 'Looks right to me' }),
    ]);

    for (const [args, message] of [
      [['work', 'edit', '3'], 'nothing to edit'],
      [['work', 'edit', '3', '--priority', 'urgent'], 'expected one of high, medium, low or none'],
      [['work', 'edit', '3', '--add-label', 'status:ready'], 'status labels are not edited here'],
      [['work', 'edit', '3', '--title', ' '], '--title is empty'],
      [['work', 'comment', '3'], 'the comment is empty'],
    ] as const) {
      const result = await flotilla(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(message);
    }
    const unknownBlocker = await flotilla(
      'work',
      'edit',
      '3',
      '--title',
      'Not saved',
      '--add-blocked-by',
      '9',
    );
    expect(unknownBlocker).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('blocker #9 does not exist'),
    });
    // All or nothing: the title was not written either.
    expect((await json('work', 'show', '3', '--json')).title).toBe('Parse input');
    expect((await flotilla('work', 'comment', '7', '-b', 'x')).code).toBe(1);
  });

  it('closes with a comment, reopens as pending (or held), and says so when there is nothing to do', async () => {
    await ok('work', 'create', '--title', 'One');
    expect(await ok('work', 'close', '1', '--comment', 'Not needed')).toBe('closed #1 (was pending)\n');
    expect(await json('work', 'show', '1', '--json')).toMatchObject({
      status: 'closed',
      comments: [expect.objectContaining({ author: 'Flotilla Test', body: 'Not needed' })],
    });
    expect(await ok('work', 'close', '1')).toBe('#1 is already closed\n');
    expect(await ok('work', 'reopen', '1')).toContain('reopened #1 as pending');
    expect(await ok('work', 'reopen', '1')).toBe('#1 is already open (pending)\n');
    await ok('work', 'close', '1');
    expect(await ok('work', 'reopen', '1', '--hold')).toContain('reopened #1 as blocked');
    expect((await json('work', 'show', '1', '--json')).status).toBe('blocked');
    expect((await flotilla('work', 'close', '8')).code).toBe(1);
  });

  it('filters the list by state, status and label like gh issue list', async () => {
    await ok('work', 'create', '--title', 'A', '--label', 'area:core');
    await ok('work', 'create', '--title', 'B', '--label', 'area:core', '--label', 'ui');
    await ok('work', 'create', '--title', 'C', '--hold');
    await ok('work', 'create', '--title', 'D', '--label', 'area:core');
    await ok('work', 'close', '4');
    const ids = async (...args: string[]) =>
      (await json('work', 'list', ...args, '--json')).map((item: { id: string }) => item.id);
    expect(await ids()).toEqual(['1', '2', '3']);
    expect(await ids('--state', 'closed')).toEqual(['4']);
    expect(await ids('--state', 'all')).toEqual(['1', '2', '3', '4']);
    expect(await ids('--all')).toEqual(['1', '2', '3', '4']);
    expect(await ids('--label', 'area:core')).toEqual(['1', '2']);
    expect(await ids('--label', 'area:core', '--label', 'ui')).toEqual(['2']);
    expect(await ids('--label', 'area:core', '--state', 'all')).toEqual(['1', '2', '4']);
    expect(await ids('--status', 'blocked')).toEqual(['3']);
    expect(await ids('--status', 'pending,closed')).toEqual(['1', '2', '4']);
    expect(await ids('--status', 'pending', '--status', 'blocked', '--state', 'open')).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(await ok('work', 'list', '--label', 'nope')).toBe('No work items match.\n');
    for (const args of [
      ['--state', 'merged'],
      ['--status', 'done'],
      ['--all', '--state', 'open'],
    ]) {
      const result = await flotilla('work', 'list', ...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
  });
});
