import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../../test/support/cli/with-local-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { resolveFlotillaPaths } from '../../config/index.ts';
import type { ReviewerRun } from '../../domain/index.ts';
import { buildImplementorContext } from '../../engine/context-assembly/build-implementor-context.ts';
import type { LocalProvider } from '../../providers/local/create-local-provider.ts';
import { buildAddFilePatch } from '../../runtimes/scripted/build-scripted-results.ts';
import { createAgentRunRepository, openDatabase, type PipelineInput } from '../../storage/index.ts';
import { runFlotilla } from '../support/run-flotilla.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

let repo: TempGitRepo;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const json = async (...args: string[]) => JSON.parse((await flotilla(...args)).stdout);

/** Opens the repository's tracker through the local provider (as the engine would) for the setup. */
const withProvider = <T>(body: (provider: LocalProvider) => Promise<T> | T): Promise<T> =>
  withLocalProvider(repo.root, { checksCommand: 'npm test' }, body);

/** Work item #1 with revision #2 on flotilla/1 adding `path`, moved to `status`. */
async function itemWithRevision(files: Record<string, string>, status = 'review') {
  const patch = Object.entries(files)
    .map(([path, content]) => buildAddFilePatch(path, content))
    .join('');
  return withProvider((provider) => createItemWithRevision(provider, patch, status as 'review'));
}

const setPipeline = (revisionID: string, headSHA: string, pipeline: PipelineInput) =>
  withProvider((provider) => provider.tracker.revisions.setPipeline(revisionID, headSHA, pipeline));

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', {
    'README.md': '# sample\n',
    '.gitignore': '.flotilla/\n',
    'flotilla.config.json': '{ "defaultBranch": "main", "checks": { "command": "npm test" } }\n',
  });
});
afterEach(() => repo.cleanup());

describe('flotilla diff', { timeout: 60_000 }, () => {
  it("prints the revision's patch, its file names, or a coloured and sanitized diff; after a merge too", async () => {
    const { headSHA } = await itemWithRevision(
      { 'src/feature.ts': 'export const f = 1;\n', 'evil.txt': 'a\x1b]0;pwned\x07b\n' },
      'approved',
    );
    const plain = await flotilla('diff', '1');
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(plain.stdout).toBe(await repo.git(['diff', '--find-renames', `${headSHA}^1`, headSHA]));
    expect(plain.stdout).toContain('+export const f = 1;');
    expect(await flotilla('diff', '#1', '--name-only')).toMatchObject({
      code: 0,
      stdout: 'evil.txt\nsrc/feature.ts\n',
    });

    const coloured = (await flotilla('diff', '1', '--color', 'always')).stdout;
    expect(coloured).toContain('\x1b[32m+export const f = 1;\x1b[0m');
    expect(coloured).toContain('\x1b[1mdiff --git a/src/feature.ts b/src/feature.ts\x1b[0m');
    // The file's own escape sequence is made visible, never sent to the terminal.
    expect(coloured).toContain('+a�]0;pwned�b');
    expect(coloured).not.toContain('\x1b]0;');

    expect((await flotilla('merge', '1')).code).toBe(0);
    expect((await flotilla('diff', '1', '--name-only')).stdout).toBe('evil.txt\nsrc/feature.ts\n');
    expect((await flotilla('diff', '1', '--color', 'sometimes')).code).toBe(2);
    await flotilla('work', 'create', '--title', 'No revision');
    expect(await flotilla('diff', '3')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('#3 has no revision yet'),
    });
  });
});

describe('flotilla checks', { timeout: 60_000 }, () => {
  it('shows status, command and log, exiting 8 pending, 1 failed, 0 passed like gh pr checks', async () => {
    const { revisionID, headSHA } = await itemWithRevision({ 'a.txt': 'a\n' });
    const pending = await flotilla('checks', '1');
    expect(pending.code).toBe(8);
    expect(pending.stdout).toMatch(/^checks\s+pending\s+npm test\s+-$/m);
    // The real launcher passes the code on to the process.
    expect((await runFlotilla(repo.root, ['checks', '1'])).code).toBe(8);

    await setPipeline(revisionID, headSHA, {
      status: 'failure',
      url: '/logs/checks-2.log',
      reason: 'npm test exited 1',
    });
    const failed = await flotilla('checks', '1');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^checks\s+failed\s+npm test\s+\/logs\/checks-2\.log$/m);
    expect(failed.stdout).toContain('reason: npm test exited 1');
    expect(JSON.parse((await flotilla('checks', '1', '--json')).stdout)).toEqual({
      workItemID: '1',
      revisionID,
      revisionState: 'open',
      headSHA,
      command: 'npm test',
      status: 'failed',
      reason: 'npm test exited 1',
      logPath: '/logs/checks-2.log',
    });

    // Passed checks keep their log too (issue 15 §8).
    await setPipeline(revisionID, headSHA, { status: 'success', url: '/logs/checks-3.log' });
    expect(await flotilla('checks', '1')).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^checks\s+passed\s+npm test\s+\/logs\/checks-3\.log$/m),
    });
    await flotilla('work', 'create', '--title', 'No revision');
    expect((await flotilla('checks', '3')).code).toBe(1);
    expect((await flotilla('checks', 'x')).code).toBe(2);
  });
});

describe('flotilla review', { timeout: 60_000 }, () => {
  it('records a human verdict like the reviewer and moves the item as the engine would', async () => {
    const { revisionID, headSHA } = await itemWithRevision({ 'a.txt': 'a\n' });
    const approved = await flotilla('review', '1', '--approve', '-b', 'Ship it');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(
      `approved revision r${revisionID} (flotilla/1 at ${headSHA.slice(0, 12)}): #1 review → approved; \`flotilla merge 1\` merges it\n`,
    );
    expect(approved.stderr).toContain('checks of revision r2 are pending');
    const shown = await json('work', 'show', '1', '--json');
    expect(shown).toMatchObject({ status: 'approved' });
    expect(shown.revision.reviews).toEqual([
      expect.objectContaining({ author: 'Flotilla Test', state: 'APPROVED', body: 'Ship it' }),
    ]);
    expect(shown.comments.at(-1)).toMatchObject({
      author: 'Flotilla Test',
      body: expect.stringContaining('approved revision 2'),
    });

    const changes = await json('review', '1', '--request-changes', '--body', 'Handle empty input', '--json');
    expect(changes).toEqual({
      workItemID: '1',
      revisionID,
      headSHA,
      reviewID: expect.any(String),
      author: 'Flotilla Test',
      state: 'CHANGES_REQUESTED',
      previousStatus: 'approved',
      status: 'pending',
    });
    // The implementor's prompt is built from this history: the human's review is in it.
    const history = await withProvider((provider) => provider.revisionReader.getReviewHistory(revisionID));
    expect(history.reviews.at(-1)).toEqual(
      expect.objectContaining({
        author: 'Flotilla Test',
        state: 'CHANGES_REQUESTED',
        body: 'Handle empty input',
      }),
    );

    const comment = await flotilla('review', '1', '--comment', '-b', 'Also the docs');
    expect(comment).toMatchObject({ code: 0, stdout: expect.stringContaining('#1 stays pending') });
    expect((await json('work', 'show', '1', '--json')).status).toBe('pending');
  });

  it('--comment-on path:line=text records line comments with the review; the rework prompt carries them', async () => {
    const { revisionID } = await itemWithRevision({
      'src/a.ts': 'export const a = 1;\nexport const b = 2;\n',
    });
    const result = await flotilla(
      'review',
      '1',
      '--request-changes',
      '--comment-on',
      'src/a.ts:2=Rename b to two: it is the second.',
      '--comment-on',
      './src/a.ts:1=Why export a?',
    );
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('#1 review → pending') });
    // The implementor's prompt, as the engine assembles it for the rework, from the local provider's readers.
    const prompt = await withProvider((provider) =>
      buildImplementorContext(
        { workItemID: '1' },
        {
          getState: () => ({ workItems: {}, revisions: {} }),
          workItemReader: provider.workItemReader,
          revisionReader: provider.revisionReader,
          getReviewHistory: (id) => provider.revisionReader.getReviewHistory(id),
        },
      ),
    );
    expect(prompt).toContain(`## Revision #${revisionID}`);
    expect(prompt).toContain('#### Review by Flotilla Test — CHANGES_REQUESTED');
    expect(prompt).toContain(
      '### Prior Inline Comments\n\n#### src/a.ts:2 — Flotilla Test\n\nRename b to two: it is the second.\n\n#### src/a.ts:1 — Flotilla Test\n\nWhy export a?',
    );
  });

  it('--comment-on refuses what is not path:line=text or a file the revision does not change (exit 2, nothing recorded)', async () => {
    await itemWithRevision({ 'src/a.ts': 'export const a = 1;\n' });
    for (const [value, message] of [
      ['src/a.ts=no line', 'expected path:line=text'],
      ['src/a.ts:0=zero', 'expected path:line=text'],
      ['src/a.ts:3=', 'expected path:line=text'],
      ['src/other.ts:1=x', 'src/other.ts is not changed by revision r2; expected one of src/a.ts'],
    ]) {
      const refused = await flotilla(
        'review',
        '1',
        '--request-changes',
        '-b',
        'x',
        '--comment-on',
        value as string,
      );
      expect({ value, code: refused.code }).toEqual({ value, code: 2 });
      expect(refused.stderr).toContain(message);
    }
    const shown = await json('work', 'show', '1', '--json');
    expect([shown.status, shown.revision.reviews]).toEqual(['review', []]);
  });

  it('refuses what it cannot record and exits 2 on usage errors, changing nothing', async () => {
    const { revisionID } = await itemWithRevision({ 'a.txt': 'a\n' });
    for (const [args, message] of [
      [['review', '1'], 'exactly one of --approve'],
      [['review', '1', '--approve', '--comment', '-b', 'x'], 'exactly one of --approve'],
      [['review', '1', '--request-changes'], '--request-changes needs the review text'],
    ] as const) {
      const result = await flotilla(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(message);
    }

    // A reviewer the running control plane has in flight would overwrite the verdict.
    const paths = resolveFlotillaPaths(repo.root);
    const running: ReviewerRun = {
      role: 'reviewer',
      sessionID: 'abcdef12-0000-0000-0000-000000000000',
      status: 'running',
      workItemID: '1',
      revisionID,
      logFilePath: null,
      error: null,
      requestedAt: 1,
      endedAt: null,
      usage: null,
      cancelRequestedBy: null,
    };
    const db = openDatabase(paths.dbPath);
    try {
      createAgentRunRepository(db).save(running);
    } finally {
      db.close();
    }
    writeFileSync(join(paths.stateDir, 'run.lock'), JSON.stringify({ pid: process.pid }));
    const busy = await flotilla('review', '1', '--approve');
    expect(busy).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('a reviewer is running on #1 (session abcdef12)'),
    });
    // Closing would be undone too: the agent's result reopens the item.
    expect(await flotilla('work', 'close', '1')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('its result would undo the close'),
    });
    // The same record left by a control plane that is gone does not block a review.
    writeFileSync(join(paths.stateDir, 'run.lock'), JSON.stringify({ pid: 2 ** 22 + 7 }));
    expect((await flotilla('review', '1', '--comment', '-b', 'fine')).code).toBe(0);

    await flotilla('work', 'transition', '1', 'in-progress');
    expect(await flotilla('review', '1', '--approve')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('#1 is in-progress'),
    });
    await flotilla('work', 'close', '1');
    expect(await flotilla('review', '1', '--approve')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('#1 is closed'),
    });
    await flotilla('work', 'create', '--title', 'No revision');
    expect(await flotilla('review', '3', '--approve')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no open revision'),
    });
    // The item without a revision still has none.
    expect((await json('work', 'show', '3', '--json')).revision).toBeNull();
  });
});

describe('item and revision ids (issue #31, point 9)', { timeout: 60_000 }, () => {
  it('shows revisions as r<N>, and an item command given a revision id names the item it belongs to', async () => {
    const { revisionID } = await itemWithRevision({ 'a.txt': 'a\n' }, 'approved');
    expect(revisionID).toBe('2');
    const list = await flotilla('work', 'list');
    expect(list.stdout).toMatch(/^#1 +approved .* r2 +Add a feature$/m);
    expect((await flotilla('work', 'show', '1')).stdout).toContain('Revision r2 (open) on flotilla/1');

    const merge = await flotilla('merge', '2');
    expect(merge).toMatchObject({ code: 1, stdout: '' });
    expect(merge.stderr).toBe(
      "flotilla merge: 2 is not a work item: it is revision r2 of work item #1; commands take the item's id: `flotilla merge 1`\n",
    );
    expect((await flotilla('checks', '#2')).stderr).toContain('`flotilla checks 1`');
    const named = await flotilla('merge', 'r2');
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('"r2" names a revision; expected the work item id');
    // The suggestion works.
    expect(await flotilla('merge', '1')).toMatchObject({ code: 0, stderr: '' });
  });
});

describe("merge's suggestions work (issue #31, point 11)", { timeout: 60_000 }, () => {
  /** The command a refusal suggests, run as it is written. */
  const suggested = (stderr: string) => {
    const command = /`flotilla ([^`]+)`/.exec(stderr)?.[1];
    if (command === undefined) throw new Error(`no command suggested in: ${stderr}`);
    return command.split(' ');
  };

  it('suggests review --approve only for an item with a revision, and what makes one otherwise', async () => {
    await itemWithRevision({ 'a.txt': 'a\n' }, 'review');
    const inReview = await flotilla('merge', '1');
    expect(inReview.code).toBe(1);
    expect(inReview.stderr).toContain('approve revision r2 yourself: `flotilla review 1 --approve`');
    expect((await flotilla(...suggested(inReview.stderr))).code).toBe(0);
    expect((await flotilla('merge', '1')).code).toBe(0);

    await flotilla('work', 'create', '--title', 'Held', '--hold');
    const held = await flotilla('merge', '3');
    expect(held.stderr).toBe(
      'flotilla merge: #3 is blocked, not approved; only approved items are merged, and it has no revision yet, so there is nothing to merge (hand it to an implementor: `flotilla work dispatch 3`)\n',
    );
    expect(await flotilla(...suggested(held.stderr))).toMatchObject({ code: 0, stderr: '' });
    const pending = await flotilla('merge', '3');
    expect(pending.stderr).toContain('#3 is ready, not approved');
    expect(pending.stderr).not.toContain('flotilla review');
    expect(pending.stderr).toContain('an implementor makes one once `flotilla run` dispatches it');
  });
});
