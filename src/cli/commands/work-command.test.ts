import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { resolveFlotillaPaths } from '../../config/index.ts';
import { openDatabase } from '../../storage/index.ts';
import { runFlotilla } from '../support/run-flotilla.ts';

let repo: TempGitRepo;
const flotilla = (args: string[], input?: string) =>
  runFlotilla(repo.root, args, input === undefined ? {} : { input });
const json = async (args: string[]) => {
  const result = await flotilla(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
};

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
});
afterEach(() => repo.cleanup());

// Each case starts the real CLI up to 14 times (through tsx in a checkout): slow under load.
describe('flotilla work', { timeout: 300_000 }, () => {
  it('creates, lists and shows work items through the real SQLite file', async () => {
    const first = await json([
      'work',
      'create',
      '--title',
      'Add a parser',
      '--body',
      'Parse the input.',
      '--label',
      'priority:high',
      '--label',
      'area:core',
      '--json',
    ]);
    expect(first).toMatchObject({
      id: '1',
      title: 'Add a parser',
      status: 'pending',
      kind: 'task',
      priority: 'high',
      complexity: null,
      blockedBy: [],
      linkedRevision: null,
    });
    await writeFile(join(repo.root, 'body.md'), '# Second\n\nDetails.\n');
    const created = await flotilla([
      'work',
      'create',
      '--title',
      'Use it',
      '--body-file',
      'body.md',
      '--blocked-by',
      '#1',
    ]);
    expect(created).toMatchObject({ code: 0, stdout: 'created #2 (pending task): Use it\n' });
    const piped = await flotilla(
      ['work', 'create', '--title', 'Q2', '--body-file', '-', '--label', 'task:refinement', '--json'],
      'piped body\n',
    );
    expect(JSON.parse(piped.stdout)).toMatchObject({ id: '3', kind: 'refinement' });

    const list = await json(['work', 'list', '--json']);
    expect(list.map((item: { id: string }) => item.id)).toEqual(['1', '2', '3']);
    expect(list[1]).toMatchObject({ blockedBy: ['1'], status: 'pending' });
    const table = await flotilla(['work', 'list']);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^ID\s+STATUS\s+KIND\s+PRIORITY\s+WAITING FOR\s+REVISION\s+TITLE$/,
    );
    expect(table.stdout).toMatch(/#2\s+pending\s+task\s+-\s+#1\s+-\s+Use it/);

    const shown = await json(['work', 'show', '2', '--json']);
    expect(shown).toMatchObject({
      id: '2',
      body: '# Second\n\nDetails.\n',
      labels: ['task:implement'],
      blockedBy: ['1'],
      comments: [],
      revision: null,
    });
    expect((await json(['work', 'show', '3', '--json'])).body).toBe('piped body\n');
    const text = await flotilla(['work', 'show', '#1']);
    expect(text.stdout).toContain('#1 Add a parser');
    expect(text.stdout).toContain('labels: task:implement, priority:high, area:core');
    expect(text.stdout).toContain('Parse the input.');

    // Issue #31 point 10: only open blockers, as "waiting for" (never beside the `blocked` status's word).
    expect((await flotilla(['work', 'show', '2'])).stdout).toContain('waiting for: #1 (pending)\n');
    expect((await flotilla(['work', 'close', '1'])).code).toBe(0);
    expect((await flotilla(['work', 'list'])).stdout).toMatch(/#2\s+pending\s+task\s+-\s+-\s+-\s+Use it/);
    expect((await flotilla(['work', 'show', '2'])).stdout).toContain('waiting for: -   (done: #1)\n');
    expect((await json(['work', 'show', '2', '--json'])).blockedBy).toEqual(['1']);
  });

  it('refuses to approve an item that has no revision, saying how to get one (exit 1, unchanged)', async () => {
    await flotilla(['work', 'create', '--title', 'One']);
    expect(await flotilla(['work', 'transition', '1', 'approved'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'flotilla work transition: #1 has no revision, so it cannot be approved; an implementor makes one: ' +
        '`flotilla work transition 1 ready` (a running `flotilla run` dispatches it)\n',
    });
    expect((await json(['work', 'show', '1', '--json'])).status).toBe('pending');
  });

  it('transitions to any status, closing and reopening, and list --all shows closed items', async () => {
    await flotilla(['work', 'create', '--title', 'One']);
    expect(await flotilla(['work', 'transition', '1', 'review'])).toMatchObject({
      code: 0,
      stdout: '#1 pending → review\n',
    });
    expect(await flotilla(['work', 'transition', '1', 'closed'])).toMatchObject({
      code: 0,
      stdout: '#1 review → closed\n',
    });
    expect(await json(['work', 'list', '--json'])).toEqual([]);
    expect((await json(['work', 'list', '--all', '--json']))[0]).toMatchObject({ id: '1', status: 'closed' });
    expect(await flotilla(['work', 'transition', '1', 'closed'])).toMatchObject({
      code: 0,
      stdout: '#1 is already closed\n',
    });
    await flotilla(['work', 'transition', '1', 'needs-refinement']);
    expect((await json(['work', 'show', '1', '--json'])).status).toBe('needs-refinement');
  });

  it('dispatch moves pending, blocked and needs-refinement tasks to ready and refuses the rest', async () => {
    await flotilla(['work', 'create', '--title', 'Blocker']);
    await flotilla(['work', 'create', '--title', 'Dependent', '--blocked-by', '1']);
    await flotilla(['work', 'create', '--title', 'Question', '--label', 'task:refinement']);

    const dispatched = await flotilla(['work', 'dispatch', '2']);
    expect(dispatched.code).toBe(0);
    expect(dispatched.stdout).toContain('#2 pending → ready');
    expect(dispatched.stderr).toContain('still waiting for #1');
    expect((await json(['work', 'show', '2', '--json'])).status).toBe('ready');
    expect(await flotilla(['work', 'dispatch', '2'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('already ready'),
    });

    for (const status of ['blocked', 'needs-refinement']) {
      await flotilla(['work', 'transition', '1', status]);
      expect((await flotilla(['work', 'dispatch', '1'])).code).toBe(0);
      expect((await json(['work', 'show', '1', '--json'])).status).toBe('ready');
    }

    const refinement = await flotilla(['work', 'dispatch', '3']);
    expect(refinement.code).toBe(1);
    expect(refinement.stderr).toContain('#3 is a refinement item');
    expect((await json(['work', 'show', '3', '--json'])).status).toBe('pending');

    await flotilla(['work', 'transition', '1', 'review']);
    const busy = await flotilla(['work', 'dispatch', '1']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(
      '#1 is review; only pending, blocked or needs-refinement items can be dispatched',
    );
    expect((await json(['work', 'show', '1', '--json'])).status).toBe('review');
  });

  it('exits 2 on usage errors and 1 on unknown items, writing nothing', async () => {
    const usage: string[][] = [
      ['work', 'transition', '1', 'done'],
      ['work', 'show', 'abc'],
      ['work', 'create'],
      ['work', 'create', '--title', 'x', '--body', 'a', '--body-file', 'b.md'],
      ['work', 'create', '--title', 'x', '--body-file', 'missing.md'],
      ['work', 'create', '--title', 'x', '--label', 'priority:urgent'],
      ['work', 'create', '--title', 'x', '--blocked-by', 'one'],
      ['work', 'frobnicate'],
    ];
    for (const args of usage) {
      const result = await flotilla(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).not.toBe('');
    }
    expect(await json(['work', 'list', '--all', '--json'])).toEqual([]);

    for (const args of [
      ['work', 'show', '7'],
      ['work', 'transition', '7', 'ready'],
      ['work', 'dispatch', '7'],
    ]) {
      const result = await flotilla(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('work item #7 does not exist');
    }
    const unknownBlocker = await flotilla(['work', 'create', '--title', 'x', '--blocked-by', '9']);
    expect(unknownBlocker.code).toBe(1);
    expect(unknownBlocker.stderr).toContain('blocker #9 does not exist');
    expect(await json(['work', 'list', '--all', '--json'])).toEqual([]);
  });

  it('exits 2 outside a git repository and on an invalid config, naming the problem', async () => {
    const dir = createTempDir();
    try {
      const outside = await runFlotilla(dir.path, ['work', 'list'], {
        env: { GIT_CEILING_DIRECTORIES: dirname(dir.path) },
      });
      expect(outside.code).toBe(2);
      expect(outside.stderr).toContain('is not inside a git repository');
    } finally {
      dir.remove();
    }
    await writeFile(join(repo.root, 'flotilla.config.json'), '{ "maxConcurentAgents": 2 }');
    const badConfig = await flotilla(['work', 'list']);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain('invalid configuration');
    expect(badConfig.stderr).toContain('maxConcurentAgents');
  });

  it('shows the linked revision with its pipeline, reviews and comments', async () => {
    await flotilla(['work', 'create', '--title', 'Feature']);
    const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
    try {
      const { createSqliteTracker } = await import('../../storage/index.ts');
      const tracker = createSqliteTracker(db, { now: () => Date.UTC(2025, 0, 1) });
      const revision = tracker.revisions.recordRevision({
        workItemID: '1',
        branchName: 'flotilla/1',
        patch: '',
        headSHA: 'a'.repeat(40),
        title: '',
        body: 'summary',
      });
      tracker.revisions.setPipeline(revision.id, revision.headSHA, {
        status: 'failure',
        url: '/logs/c.log',
        reason: 'npm test',
      });
      tracker.revisions.postReview(revision.id, {
        verdict: 'needs-changes',
        summary: 'Fix the edge case.',
        comments: [{ path: 'src/a.ts', line: 3, body: 'off by one' }],
      });
      tracker.workItems.addComment('1', 'Implementor: done.');
    } finally {
      db.close();
    }
    const shown = await json(['work', 'show', '1', '--json']);
    expect(shown.linkedRevision).toBe('2');
    expect(shown.comments).toEqual([
      expect.objectContaining({ author: 'flotilla', body: 'Implementor: done.' }),
    ]);
    expect(shown.revision).toMatchObject({
      id: '2',
      state: 'open',
      headRef: 'flotilla/1',
      headSHA: 'a'.repeat(40),
      pipeline: { status: 'failed', url: '/logs/c.log', reason: 'npm test' },
      reviews: [
        {
          author: 'flotilla',
          state: 'CHANGES_REQUESTED',
          body: 'Fix the edge case.',
          comments: [{ path: 'src/a.ts', line: 3, body: 'off by one' }],
        },
      ],
    });
    const text = (await flotilla(['work', 'show', '1'])).stdout;
    expect(text).toContain('Revision r2 (open) on flotilla/1');
    expect(text).toContain('checks: failed — npm test (log: /logs/c.log)');
    expect(text).toContain('src/a.ts:3: off by one');
  });

  it('names the log of passed checks too, on an approved item (human and --json)', async () => {
    await flotilla(['work', 'create', '--title', 'Feature']);
    const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
    try {
      const { createSqliteTracker } = await import('../../storage/index.ts');
      const tracker = createSqliteTracker(db, { now: () => Date.UTC(2025, 0, 1) });
      const revision = tracker.revisions.recordRevision({
        workItemID: '1',
        branchName: 'flotilla/1',
        patch: '',
        headSHA: 'b'.repeat(40),
        title: '',
        body: 'summary',
      });
      tracker.revisions.setPipeline(revision.id, revision.headSHA, {
        status: 'success',
        url: '/logs/checks-pass.log',
      });
      tracker.workItems.transitionStatus('1', 'approved');
    } finally {
      db.close();
    }
    const shown = await json(['work', 'show', '1', '--json']);
    expect(shown.status).toBe('approved');
    expect(shown.revision.pipeline).toEqual({
      status: 'passed',
      url: '/logs/checks-pass.log',
      reason: null,
    });
    const text = (await flotilla(['work', 'show', '1'])).stdout;
    expect(text).toContain('checks: passed (log: /logs/checks-pass.log)');
  });
});
