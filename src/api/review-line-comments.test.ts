import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItemWithRevision, withLocalProvider } from '../../test/support/cli/with-local-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { type CliContext, openCliContext } from '../cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../cli/support/require-local-tracker.ts';
import { buildImplementorContext } from '../engine/context-assembly/build-implementor-context.ts';
import { buildAddFilePatch } from '../runtimes/scripted/build-scripted-results.ts';
import type { SqliteTracker } from '../storage/index.ts';
import { createApiApp } from './create-api-app.ts';
import { createEventHub } from './create-event-hub.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';

/**
 * Line comments in a human's review through the API (`POST …/review` with `comments`): validated by the
 * route's Zod schema, stored by the local provider as the review's comments, shown by `work show` (the
 * details route) and carried into the implementor's rework prompt, as `flotilla review --comment-on` does.
 */

let repo: TempGitRepo;
let context: CliContext;
let tracker: SqliteTracker;
let server: RunningApiServer;
const ids = { rework: '', refused: '' };
const FILE = 'src/greet.js';

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  await withLocalProvider(repo.root, { checksCommand: null }, async (provider) => {
    const patch = buildAddFilePatch(FILE, 'export const greet = (name) => name;\nexport {};\n');
    ids.rework = (await createItemWithRevision(provider, patch, 'review')).id;
    ids.refused = (await createItemWithRevision(provider, buildAddFilePatch('src/x.js', 'x\n'), 'review')).id;
  });
  context = await openCliContext(repo.root);
  tracker = await requireLocalTracker(context, 'serve');
  const app = createApiApp({
    config: context.config,
    tracker,
    provider: await context.provider.open(),
    history: context.history,
    paths: context.paths,
    events: createEventHub(),
    readAuthor: async () => 'Ada',
    repoRoot: repo.root,
  });
  server = await startApiServer(app, parseListenAddress('127.0.0.1:0'), { tokenSet: false });
});

afterAll(async () => {
  await server?.close();
  await context?.close();
  await repo?.cleanup();
});

const review = (id: string, body: unknown) =>
  fetch(`${server.url}/api/work-items/${id}/review`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;
const reviewsOf = (id: string) =>
  tracker.revisions.listReviews(tracker.workItems.getWorkItem(id)?.linkedRevision ?? '');

describe('POST /api/work-items/:id/review with line comments', () => {
  it('requests changes with line comments only: stored, shown by work show, in the rework prompt', async () => {
    const response = await review(ids.rework, {
      verdict: 'request-changes',
      comments: [
        { path: FILE, line: 1, body: '  Trim the name first.  ' },
        { path: FILE, line: 2, body: 'Drop the empty export.' },
      ],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ state: 'CHANGES_REQUESTED', status: 'pending' });
    expect(reviewsOf(ids.rework).map((entry) => entry.comments)).toEqual([
      [
        expect.objectContaining({ path: FILE, line: 1, body: 'Trim the name first.' }),
        expect.objectContaining({ path: FILE, line: 2, body: 'Drop the empty export.' }),
      ],
    ]);

    const details = (await (await fetch(`${server.url}/api/work-items/${ids.rework}`)).json()) as {
      revision: { reviews: { comments: { path: string; line: number | null; body: string }[] }[] };
    };
    expect(details.revision.reviews.at(-1)?.comments).toEqual([
      expect.objectContaining({ path: FILE, line: 1, body: 'Trim the name first.' }),
      expect.objectContaining({ path: FILE, line: 2, body: 'Drop the empty export.' }),
    ]);

    const prompt = await withLocalProvider(repo.root, { checksCommand: null }, (provider) =>
      buildImplementorContext(
        { workItemID: ids.rework },
        {
          getState: () => ({ workItems: {}, revisions: {} }),
          workItemReader: provider.workItemReader,
          revisionReader: provider.revisionReader,
          getReviewHistory: (id) => provider.revisionReader.getReviewHistory(id),
        },
      ),
    );
    expect(prompt).toContain(
      `### Prior Inline Comments\n\n#### ${FILE}:1 — Ada\n\nTrim the name first.\n\n#### ${FILE}:2 — Ada\n\nDrop the empty export.`,
    );
  });

  it('refuses malformed comments naming the field, and a file the revision does not change', async () => {
    for (const [comment, field] of [
      [{ path: FILE, line: 0, body: 'x' }, 'comments.0.line'],
      [{ path: FILE, line: 1.5, body: 'x' }, 'comments.0.line'],
      [{ path: '', line: 1, body: 'x' }, 'comments.0.path'],
      [{ path: FILE, line: 1, body: '   ' }, 'comments.0.body'],
      [{ line: 1, body: 'x' }, 'comments.0.path'],
    ] as const) {
      const refused = await review(ids.refused, { verdict: 'request-changes', comments: [comment] });
      expect({ comment, status: refused.status }).toEqual({ comment, status: 400 });
      expect(await errorOf(refused)).toMatchObject({ code: 'invalid_request', field });
    }
    const notChanged = await review(ids.refused, {
      verdict: 'comment',
      comments: [{ path: 'src/other.js', line: 1, body: 'x' }],
    });
    expect(notChanged.status).toBe(400);
    expect((await errorOf(notChanged)).message).toMatch(
      /^line comment on src\/other\.js:1: src\/other\.js is not changed by revision r\d+; expected one of src\/x\.js$/,
    );
    const empty = await review(ids.refused, { verdict: 'comment', comments: [] });
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toMatchObject({ field: 'body' });
    expect(reviewsOf(ids.refused)).toEqual([]);
  });

  it('approves with a line comment: recorded with the approval', async () => {
    const response = await review(ids.refused, {
      verdict: 'approve',
      comments: [{ path: 'src/x.js', line: 1, body: 'Fine, but name it better next time.' }],
    });
    expect(response.status).toBe(200);
    expect(reviewsOf(ids.refused).map((entry) => [entry.state, entry.comments.length])).toEqual([
      ['APPROVED', 1],
    ]);
  });
});
