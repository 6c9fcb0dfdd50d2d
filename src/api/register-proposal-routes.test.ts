import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProposal } from '../../test/support/api/save-proposal.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { type CliContext, openCliContext } from '../cli/support/open-cli-context.ts';
import { requireLocalTracker } from '../cli/support/require-local-tracker.ts';
import { findProposalDecision, type Proposal } from '../domain/index.ts';
import type { SqliteTracker } from '../storage/index.ts';
import { createApiApp } from './create-api-app.ts';
import { createEventHub } from './create-event-hub.ts';
import { parseListenAddress } from './parse-listen-address.ts';
import { type RunningApiServer, startApiServer } from './start-api-server.ts';

/**
 * The proposal routes record the same decision comment `flotilla proposals accept|reject` does, which the
 * engine reads with `findProposalDecision`; memory and stats answer what the CLI's `--json` prints.
 */

let repo: TempGitRepo;
let context: CliContext;
let tracker: SqliteTracker;
let server: RunningApiServer;
const ids = { toAccept: '', toReject: '', toComment: '', decided: '' };

function save(title: string, status: Proposal['status'], createdAt: number): string {
  return saveProposal(
    { tracker, history: context.history },
    { title, tasks: [`${title}: first task`], status, createdAt },
  );
}

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; field?: string } }).error;

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  context = await openCliContext(repo.root);
  tracker = await requireLocalTracker(context, 'serve');
  ids.decided = save('Old plan', 'accepted', 1_000);
  ids.toAccept = save('Plan A', 'pending', 2_000);
  ids.toReject = save('Plan B', 'pending', 3_000);
  ids.toComment = save('Plan C', 'pending', 500);
  context.history.memories.upsert({
    topic: 'tests',
    text: 'run vitest with IS_SANDBOX=1',
    source: 'implementor',
    sessionID: null,
    workItemID: null,
    runtime: null,
    at: 4_000,
  });
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

describe('GET /api/proposals', () => {
  it('lists them newest first, filtered by ?status=', async () => {
    const all = (await (await fetch(`${server.url}/api/proposals`)).json()) as Proposal[];
    expect(all.map((proposal) => [proposal.id, proposal.status])).toEqual([
      [ids.toReject, 'pending'],
      [ids.toAccept, 'pending'],
      [ids.decided, 'accepted'],
      [ids.toComment, 'pending'],
    ]);
    const pending = (await (await fetch(`${server.url}/api/proposals?status=pending`)).json()) as Proposal[];
    expect(pending.map((proposal) => proposal.id)).toEqual([ids.toReject, ids.toAccept, ids.toComment]);
    expect(pending.map((proposal) => (proposal as { decision?: unknown }).decision)).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('refuses an unknown status naming the field', async () => {
    const response = await fetch(`${server.url}/api/proposals?status=maybe`);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'invalid_request', field: 'status' });
  });

  it('shows one, 404 for an unknown id, 400 for a malformed one', async () => {
    const one = await fetch(`${server.url}/api/proposals/${ids.toAccept}`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as Proposal).result.create[0]?.title).toBe('Plan A: first task');
    const unknown = await fetch(`${server.url}/api/proposals/999`);
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ code: 'not_found', message: 'no proposal #999' });
    const bad = await fetch(`${server.url}/api/proposals/abc`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).field).toBe('id');
  });
});

describe('POST /api/proposals/:id/accept|reject', () => {
  it('accepts as the human: the decision the engine reads', async () => {
    const response = await post(`/api/proposals/${ids.toAccept}/accept`, {});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      proposalID: ids.toAccept,
      decision: 'accept',
      author: 'Ada',
      effect: 'it is applied',
      when: 'at the next flotilla run',
    });
    const comments = tracker.workItems.getWorkItemComments(ids.toAccept);
    expect(findProposalDecision(comments)).toEqual({ decision: 'accept', reason: null, author: 'Ada' });
    // Still pending until the engine reads it: the list says a decision is recorded.
    const shown = (await (await fetch(`${server.url}/api/proposals/${ids.toAccept}`)).json()) as object;
    expect(shown).toMatchObject({ status: 'pending', decision: { decision: 'accept', author: 'Ada' } });
  });

  it('rejects with the reason the revising planner gets', async () => {
    const response = await post(`/api/proposals/${ids.toReject}/reject`, { comment: 'split the first task' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { effect: string }).effect).toBe(
      'the planner revises the plan with your comment',
    );
    const comments = tracker.workItems.getWorkItemComments(ids.toReject);
    expect(findProposalDecision(comments)).toEqual({
      decision: 'reject',
      reason: 'split the first task',
      author: 'Ada',
    });
  });

  it('records a comment as feedback: the revising planner gets it, nothing is applied', async () => {
    const response = await post(`/api/proposals/${ids.toComment}/comment`, {
      comment: '/accept is not what I mean: split the first task',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      decision: 'comment',
      author: 'Ada',
      effect: 'the planner revises the plan with your comment',
    });
    const comments = tracker.workItems.getWorkItemComments(ids.toComment);
    expect(findProposalDecision(comments)).toEqual({
      decision: 'reject',
      reason: '/accept is not what I mean: split the first task',
      author: 'Ada',
      feedback: true,
    });
    const shown = (await (await fetch(`${server.url}/api/proposals/${ids.toComment}`)).json()) as object;
    expect(shown).toMatchObject({ status: 'pending', decision: { decision: 'reject', feedback: true } });
    const empty = await post(`/api/proposals/${ids.toComment}/comment`, { comment: '  ' });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).field).toBe('comment');
    expect((await post(`/api/proposals/${ids.decided}/comment`, { comment: 'late' })).status).toBe(409);
  });

  it('refuses a decided proposal (409), an unknown one (404) and a bad body (400)', async () => {
    const decided = await post(`/api/proposals/${ids.decided}/accept`, {});
    expect(decided.status).toBe(409);
    expect((await errorOf(decided)).message).toMatch(/is accepted \(by Grace\); only a pending one/);
    expect((await post('/api/proposals/999/reject', { comment: 'no' })).status).toBe(404);
    const bad = await post(`/api/proposals/${ids.decided}/reject`, { comment: 42 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).field).toBe('comment');
    expect(tracker.workItems.getWorkItemComments(ids.decided)).toHaveLength(1);
  });
});

describe('GET /api/memory and /api/stats', () => {
  it('lists the memories', async () => {
    const response = await fetch(`${server.url}/api/memory`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject([{ topic: 'tests', text: 'run vitest with IS_SANDBOX=1' }]);
  });

  it('answers the stats of the period, and refuses a bad ?since=', async () => {
    const response = await fetch(`${server.url}/api/stats?since=all`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      agentNotes: { decision: 0, question: 0, latestDecisions: [] },
    });
    const bad = await fetch(`${server.url}/api/stats?since=yesterday`);
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: 'invalid_request', field: 'since' });
  });
});
