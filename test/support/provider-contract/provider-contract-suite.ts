import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AgentReview,
  ReviewHistory,
  Revision,
  SpecStatus,
  WorkItem,
} from '../../../src/domain/index.ts';
import type { CreateRevisionInput, Provider } from '../../../src/providers/types.ts';
import { hashText } from '../../../src/shared/hash-text.ts';

/** How the provider under test is set up. */
export interface ProviderContractOptions {
  /** `none`: no checks configured; `passing` / `failing`: every revision head's checks pass / fail. */
  checks: 'none' | 'passing' | 'failing';
}

/**
 * What the suite needs from the outside world around a provider: a human, the default branch, CI. Each
 * provider (or test double) implements it in its own terms.
 */
export interface ProviderContractControl {
  /** Author of the engine's revisions, reviews and comments. */
  engineAuthor: string;
  /** Commits (or simulates committing) a spec file with this exact content to the default branch. */
  addSpec(spec: { filePath: string; content: string; status: SpecStatus }): Promise<void>;
  /** Commits a spec whose frontmatter cannot be read. */
  addBrokenSpec(spec: { filePath: string; content: string }): Promise<void>;
  /** Closes the item the way a human does (state only, labels untouched). */
  humanCloseWorkItem(id: string): Promise<void>;
  /** Comment bodies on the work item, oldest first. */
  workItemComments(id: string): Promise<string[]>;
  /** Comment bodies on the revision, oldest first. */
  revisionComments(id: string): Promise<string[]>;
  /** Lets every pending check finish (runs them, or plays CI), per `ProviderContractOptions.checks`. */
  settleChecks(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * The optional capabilities the provider under test declares: the suite checks it has exactly these, and runs
 * a capability's cases only where it is declared (never a skipped test).
 */
export interface ProviderContractCapabilities {
  /** `Provider.localAdmin`: a tracker Flotilla keeps itself. */
  localAdmin: boolean;
  /** `Provider.history`: an item's labels, comments and review rounds; any head's checks log. */
  history: boolean;
}

export type ProviderContractFactory = (
  options: ProviderContractOptions,
) => Promise<{ provider: Provider; control: ProviderContractControl }>;

/** The default branch every provider under test starts with: this one file (fakes need not have it). */
export const CONTRACT_BASE_FILES: Readonly<Record<string, string>> = { 'README.md': '# Contract\n' };

const UNKNOWN_ID = '987654';
const SHA = /^[0-9a-f]{40}$/;

/** A `git diff --full-index` adding one text file. */
export function buildContractAddPatch(path: string, content: string): string {
  const lines = content.slice(0, -1).split('\n');
  return [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    `index ${'0'.repeat(40)}..${gitBlobSHA(content)}`,
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +1${lines.length === 1 ? '' : `,${lines.length}`} @@`,
    ...lines.map((line) => `+${line}`),
    '',
  ].join('\n');
}

/** Appends a line to CONTRACT_BASE_FILES' README.md. */
const MODIFY_README_PATCH = [
  'diff --git a/README.md b/README.md',
  `index ${gitBlobSHA('# Contract\n')}..${gitBlobSHA('# Contract\nmore\n')} 100644`,
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1 +1,2 @@',
  ' # Contract',
  '+more',
  '',
].join('\n');

/**
 * Does not apply: its preimage is not README.md's content. It also carries the in-memory double's conflict
 * marker, so the double (which does not run git) rejects it too.
 */
const CONFLICTING_PATCH = [
  'diff --git a/README.md b/README.md',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1 +1 @@',
  '-FLOTILLA-TEST-PATCH-CONFLICT',
  '+changed',
  '',
].join('\n');

function gitBlobSHA(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function specContent(status: SpecStatus, title: string): string {
  return `---\nstatus: ${status}\n---\n\n# ${title}\n`;
}

const changesRequested: AgentReview = {
  verdict: 'needs-changes',
  summary: 'Please add a test',
  comments: [
    { path: 'src/a.ts', line: 1, body: 'off by one' },
    { path: 'README.md', line: null, body: 'document it' },
  ],
};
const approval: AgentReview = { verdict: 'approve', summary: 'Looks good', comments: [] };

/**
 * The guarantees every provider gives the engine (src/providers/types.ts, docs/reference-behaviour.md §1 and §7):
 * run it from a `*.contract.test.ts` with the provider's factory. Where providers legitimately differ, the
 * test checks what they have in common and says how they differ.
 */
export function describeProviderContract(
  name: string,
  factory: ProviderContractFactory,
  capabilities: ProviderContractCapabilities,
): void {
  describe(`provider contract: ${name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setup(options: ProviderContractOptions = { checks: 'none' }) {
      const created = await factory(options);
      cleanups.push(() => created.control.cleanup());
      return created;
    }

    async function createItem(
      provider: Provider,
      fields: Partial<Parameters<typeof provider.workItemWriter.createWorkItem>[0]> = {},
    ) {
      return provider.workItemWriter.createWorkItem({
        title: 'Add the feature',
        body: 'Objective: the feature',
        labels: [],
        blockedBy: [],
        ...fields,
      });
    }

    function revisionInput(item: WorkItem, fields: Partial<CreateRevisionInput> = {}): CreateRevisionInput {
      return {
        workItemID: item.id,
        patch: buildContractAddPatch('src/a.ts', 'export const a = 1;\n'),
        branchName: `flotilla/${item.id}`,
        title: '',
        body: `Closes #${item.id}`,
        ...fields,
      };
    }

    describe('work items', () => {
      it('creates a task with defaults, lists it and reads it back', async () => {
        const { provider } = await setup();
        const item = await createItem(provider);
        expect(item).toEqual({
          id: expect.stringMatching(/^[1-9][0-9]*$/),
          title: 'Add the feature',
          status: 'pending',
          kind: 'task',
          priority: null,
          complexity: null,
          blockedBy: [],
          bodyHash: expect.stringMatching(/^[0-9a-f]{16}$/),
          createdAt: expect.any(String),
          linkedRevision: null,
        });
        expect(new Date(item.createdAt).toISOString()).toBe(item.createdAt);
        expect(await provider.workItemReader.listWorkItems()).toEqual([item]);
        expect(await provider.workItemReader.getWorkItem(item.id)).toEqual(item);
      });

      it('gives every item its own id and lists open items oldest first', async () => {
        const { provider } = await setup();
        const first = await createItem(provider, { title: 'first' });
        const second = await createItem(provider, { title: 'second' });
        expect(second.id).not.toBe(first.id);
        expect(Number(second.id)).toBeGreaterThan(Number(first.id));
        expect((await provider.workItemReader.listWorkItems()).map((item) => item.title)).toEqual([
          'first',
          'second',
        ]);
      });

      it('reads status, kind, priority and complexity from labels; unknown values are dropped', async () => {
        const { provider } = await setup();
        const task = await createItem(provider, { labels: ['priority:high', 'complexity:low', 'area:api'] });
        expect(task).toMatchObject({ kind: 'task', priority: 'high', complexity: 'low', status: 'pending' });
        const refinement = await createItem(provider, {
          labels: ['task:refinement', 'priority:medium', 'complexity:high'],
        });
        // Complexity applies to tasks only.
        expect(refinement).toMatchObject({ kind: 'refinement', priority: 'medium', complexity: null });
        const ready = await createItem(provider, { labels: ['status:ready', 'priority:urgent'] });
        expect(ready).toMatchObject({ status: 'ready', priority: null });
        expect(await provider.workItemReader.getWorkItem(refinement.id)).toEqual(refinement);
      });

      it("lists a planner's questions item (task:questions) created waiting for input", async () => {
        const { provider } = await setup();
        const questions = await createItem(provider, {
          title: 'Planner questions: docs/specs/a.md',
          labels: ['task:questions', 'status:waiting-for-input'],
        });
        expect(questions).toMatchObject({ kind: 'questions', status: 'waiting-for-input', complexity: null });
        expect((await provider.workItemReader.listWorkItems()).map((item) => item.id)).toContain(
          questions.id,
        );
        expect(await provider.workItemReader.getWorkItem(questions.id)).toEqual(questions);
      });

      it('keeps dependency lists', async () => {
        const { provider } = await setup();
        const a = await createItem(provider, { title: 'a' });
        const b = await createItem(provider, { title: 'b' });
        const c = await createItem(provider, { title: 'c', blockedBy: [a.id, b.id] });
        expect(c.blockedBy).toEqual([a.id, b.id]);
        expect((await provider.workItemReader.getWorkItem(c.id))?.blockedBy).toEqual([a.id, b.id]);
      });

      it('returns the body exactly as written', async () => {
        const { provider } = await setup();
        const body = '## Objective\n\nÜnïcödé, `code` and <!-- a comment -->\n\n- [ ] done\n';
        const item = await createItem(provider, { body });
        expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe(body);
      });

      it("reports its body's version (bodyHash): the body's hashText, changed by a body edit only", async () => {
        const { provider } = await setup();
        const item = await createItem(provider, { body: 'Make it faster.\n' });
        expect(item.bodyHash).toBe(hashText('Make it faster.'));
        await provider.workItemWriter.transitionStatus(item.id, 'needs-refinement');
        await provider.workItemWriter.updateWorkItem(item.id, { title: 'Faster', body: null, labels: ['x'] });
        expect((await provider.workItemReader.getWorkItem(item.id))?.bodyHash).toBe(item.bodyHash);
        await provider.workItemWriter.updateWorkItem(item.id, {
          body: 'Make `parse` 2x faster.',
          labels: null,
        });
        const listed = (await provider.workItemReader.listWorkItems()).find((found) => found.id === item.id);
        expect(listed?.bodyHash).toBe(hashText('Make `parse` 2x faster.'));
      });

      it('adds comments in order', async () => {
        const { provider, control } = await setup();
        const item = await createItem(provider);
        await provider.workItemWriter.addComment(item.id, 'first');
        await provider.workItemWriter.addComment(item.id, 'second\nline');
        expect(await control.workItemComments(item.id)).toEqual(['first', 'second\nline']);
      });

      it('transitions statuses; closed items leave the listing but stay readable; reopening lists them again', async () => {
        const { provider } = await setup();
        const item = await createItem(provider);
        for (const status of [
          'ready',
          'in-progress',
          'review',
          'approved',
          'needs-refinement',
          'blocked',
        ] as const) {
          await provider.workItemWriter.transitionStatus(item.id, status);
          expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe(status);
        }
        await provider.workItemWriter.transitionStatus(item.id, 'closed');
        expect(await provider.workItemReader.listWorkItems()).toEqual([]);
        expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
          id: item.id,
          status: 'closed',
        });
        await provider.workItemWriter.transitionStatus(item.id, 'pending');
        expect((await provider.workItemReader.listWorkItems()).map((listed) => listed.status)).toEqual([
          'pending',
        ]);
      });

      it('shows an item a human closed as closed, whatever its status label says', async () => {
        const { provider, control } = await setup();
        const item = await createItem(provider);
        await provider.workItemWriter.transitionStatus(item.id, 'approved');
        await control.humanCloseWorkItem(item.id);
        expect(await provider.workItemReader.listWorkItems()).toEqual([]);
        expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('closed');
      });

      it('updates: null leaves a field unchanged; labels replace all but the status (and kind unless given)', async () => {
        const { provider } = await setup();
        const item = await createItem(provider, { labels: ['priority:high', 'complexity:low'] });
        await provider.workItemWriter.transitionStatus(item.id, 'ready');

        await provider.workItemWriter.updateWorkItem(item.id, { body: 'new body', labels: null });
        expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('new body');
        const titled = item.title;
        expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
          title: titled,
          priority: 'high',
          complexity: 'low',
          status: 'ready',
        });

        // A title (an accepted refinement's, issue #29) replaces the item's; body and labels stay.
        await provider.workItemWriter.updateWorkItem(item.id, {
          title: 'A clearer title',
          body: null,
          labels: null,
        });
        expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
          title: 'A clearer title',
          priority: 'high',
        });
        expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('new body');

        await provider.workItemWriter.updateWorkItem(item.id, {
          body: null,
          labels: ['priority:low', 'status:approved'],
        });
        expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('new body');
        expect(await provider.workItemReader.getWorkItem(item.id)).toMatchObject({
          priority: 'low',
          complexity: null,
          status: 'ready',
          kind: 'task',
        });

        await provider.workItemWriter.updateWorkItem(item.id, { body: null, labels: ['task:refinement'] });
        expect((await provider.workItemReader.getWorkItem(item.id))?.kind).toBe('refinement');
      });

      it('answers unknown ids with null from getWorkItem and an error naming the id elsewhere', async () => {
        const { provider } = await setup();
        await createItem(provider);
        expect(await provider.workItemReader.getWorkItem(UNKNOWN_ID)).toBeNull();
        expect(await provider.workItemReader.getWorkItem('not-an-id')).toBeNull();
        const named = new RegExp(UNKNOWN_ID);
        await expect(provider.workItemReader.getWorkItemBody(UNKNOWN_ID)).rejects.toThrow(named);
        await expect(provider.workItemWriter.transitionStatus(UNKNOWN_ID, 'ready')).rejects.toThrow(named);
        await expect(
          provider.workItemWriter.updateWorkItem(UNKNOWN_ID, { body: 'x', labels: null }),
        ).rejects.toThrow(named);
        await expect(provider.workItemWriter.addComment(UNKNOWN_ID, 'x')).rejects.toThrow(named);
      });
    });

    describe('revisions', () => {
      it('creates a revision from a patch and links it to its work item', async () => {
        const { provider, control } = await setup();
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        expect(revision).toMatchObject({
          title: item.title, // an empty title means the work item's
          headRef: `flotilla/${item.id}`,
          author: control.engineAuthor,
          body: `Closes #${item.id}`,
          isDraft: false,
          workItemID: item.id,
          reviewID: null,
        });
        expect(revision.headSHA).toMatch(SHA);
        expect(revision.id).toMatch(/^[1-9][0-9]*$/);
        // One id sequence for items and revisions, as on GitHub: a revision id never names an item.
        expect(revision.id).not.toBe(item.id);
        expect(await provider.workItemReader.getWorkItem(revision.id)).toBeNull();
        expect(await provider.revisionReader.getRevision(item.id)).toBeNull();

        expect(await provider.revisionReader.listRevisions()).toEqual([revision]);
        expect(await provider.revisionReader.getRevision(revision.id)).toEqual(revision);
        expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBe(revision.id);
      });

      it('uses an explicit title', async () => {
        const { provider } = await setup();
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(
          revisionInput(item, { title: 'Feature: the API' }),
        );
        expect(revision.title).toBe('Feature: the API');
      });

      it('lists the files a revision changes, with their hunks', async () => {
        const { provider } = await setup();
        const item = await createItem(provider);
        const patch = `${buildContractAddPatch('src/a.ts', 'export const a = 1;\nexport const b = 2;\n')}${MODIFY_README_PATCH}`;
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item, { patch }));
        const files = await provider.revisionReader.getRevisionFiles(revision.id);
        expect([...files].sort((x, y) => x.path.localeCompare(y.path))).toEqual([
          { path: 'README.md', status: 'modified', patch: '@@ -1 +1,2 @@\n # Contract\n+more' },
          {
            path: 'src/a.ts',
            status: 'added',
            patch: '@@ -0,0 +1,2 @@\n+export const a = 1;\n+export const b = 2;',
          },
        ]);
      });

      it('re-pushing the same branch updates the same revision: new head, same title and body, new files', async () => {
        const { provider } = await setup();
        const item = await createItem(provider);
        const first = await provider.revisionWriter.createFromPatch(revisionInput(item));
        const second = await provider.revisionWriter.createFromPatch(
          revisionInput(item, {
            patch: buildContractAddPatch('src/b.ts', 'export const b = 2;\n'),
            title: 'ignored on a re-push',
            body: 'ignored on a re-push',
          }),
        );
        expect(second.id).toBe(first.id);
        expect(second.headSHA).toMatch(SHA);
        expect(second.headSHA).not.toBe(first.headSHA);
        expect(second).toMatchObject({ title: first.title, body: first.body, headRef: first.headRef });
        expect((await provider.revisionReader.listRevisions()).map((revision) => revision.id)).toEqual([
          first.id,
        ]);
        // Every push is based on the default branch, so the files are the latest patch's only.
        expect((await provider.revisionReader.getRevisionFiles(first.id)).map((file) => file.path)).toEqual([
          'src/b.ts',
        ]);
        expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBe(first.id);
      });

      it('rejects a patch that does not apply, or an empty one, and writes nothing', async () => {
        const { provider } = await setup();
        const item = await createItem(provider);
        await expect(
          provider.revisionWriter.createFromPatch(revisionInput(item, { patch: CONFLICTING_PATCH })),
        ).rejects.toThrow(/does not apply/);
        await expect(
          provider.revisionWriter.createFromPatch(revisionInput(item, { patch: '' })),
        ).rejects.toThrow(/empty/);
        expect(await provider.revisionReader.listRevisions()).toEqual([]);
        expect((await provider.workItemReader.getWorkItem(item.id))?.linkedRevision).toBeNull();
      });

      it('rejects a revision for an unknown work item, naming it', async () => {
        const { provider } = await setup();
        await createItem(provider);
        await expect(
          provider.revisionWriter.createFromPatch({
            workItemID: UNKNOWN_ID,
            patch: buildContractAddPatch('src/a.ts', 'x\n'),
            branchName: `flotilla/${UNKNOWN_ID}`,
            title: '',
            body: '',
          }),
        ).rejects.toThrow(new RegExp(UNKNOWN_ID));
        expect(await provider.revisionReader.listRevisions()).toEqual([]);
      });

      it('posts a review, replaces it (the earlier one dismissed) and keeps the history', async () => {
        const { provider, control } = await setup();
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        const firstID = await provider.revisionWriter.postReview(revision.id, changesRequested);
        expect(firstID).toEqual(expect.any(String));
        expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(firstID);
        // `verdict` is optional (a provider may not know a dismissed review's): compared apart, where known.
        const withoutVerdicts = ({ reviews, inlineComments }: ReviewHistory) => ({
          reviews: reviews.map(({ author, state, body }) => ({ author, state, body })),
          inlineComments,
        });
        expect(withoutVerdicts(await provider.revisionReader.getReviewHistory(revision.id))).toEqual({
          reviews: [{ author: control.engineAuthor, state: 'CHANGES_REQUESTED', body: 'Please add a test' }],
          inlineComments: [
            { path: 'src/a.ts', line: 1, author: control.engineAuthor, body: 'off by one' },
            { path: 'README.md', line: null, author: control.engineAuthor, body: 'document it' },
          ],
        });

        const secondID = await provider.revisionWriter.updateReview(revision.id, firstID, approval);
        expect(secondID).not.toBe(firstID);
        expect((await provider.revisionReader.getRevision(revision.id))?.reviewID).toBe(secondID);
        const history = await provider.revisionReader.getReviewHistory(revision.id);
        expect(withoutVerdicts(history).reviews).toEqual([
          { author: control.engineAuthor, state: 'DISMISSED', body: 'Please add a test' },
          { author: control.engineAuthor, state: 'APPROVED', body: 'Looks good' },
        ]);
        expect(history.inlineComments).toHaveLength(2);
        await expect(provider.revisionWriter.updateReview(revision.id, UNKNOWN_ID, approval)).rejects.toThrow(
          new RegExp(UNKNOWN_ID),
        );
      });

      it('posts comments and updates the body', async () => {
        const { provider, control } = await setup();
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        await provider.revisionWriter.postComment(revision.id, 'first');
        await provider.revisionWriter.postComment(revision.id, 'second');
        expect(await control.revisionComments(revision.id)).toEqual(['first', 'second']);
        await provider.revisionWriter.updateBody(revision.id, `Closes #${item.id}\n\nSummary`);
        expect((await provider.revisionReader.getRevision(revision.id))?.body).toBe(
          `Closes #${item.id}\n\nSummary`,
        );
      });

      it('answers unknown revision ids with null from getRevision and an error naming the id elsewhere', async () => {
        const { provider } = await setup();
        const named = new RegExp(UNKNOWN_ID);
        expect(await provider.revisionReader.getRevision(UNKNOWN_ID)).toBeNull();
        await expect(provider.revisionReader.getRevisionFiles(UNKNOWN_ID)).rejects.toThrow(named);
        await expect(provider.revisionReader.getReviewHistory(UNKNOWN_ID)).rejects.toThrow(named);
        await expect(provider.revisionWriter.postReview(UNKNOWN_ID, approval)).rejects.toThrow(named);
        await expect(provider.revisionWriter.postComment(UNKNOWN_ID, 'x')).rejects.toThrow(named);
        await expect(provider.revisionWriter.updateBody(UNKNOWN_ID, 'x')).rejects.toThrow(named);
      });
    });

    // An optional capability: a provider without `mergeRevision` skips these (the engine then refuses merges).
    describe('merging (RevisionWriter.mergeRevision, optional)', () => {
      async function approvedWithRevision(skip: () => never) {
        const { provider } = await setup();
        const merge = provider.revisionWriter.mergeRevision?.bind(provider.revisionWriter);
        if (merge === undefined) return skip();
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        await provider.workItemWriter.transitionStatus(item.id, 'approved');
        return { provider, item, revision, merge };
      }

      it('merges into the default branch, marks the revision merged and closes the item', async (context) => {
        const { provider, item, revision, merge } = await approvedWithRevision(() => context.skip());
        const before = await provider.specReader.getDefaultBranchSHA();
        const result = await merge(revision.id);
        expect(result.workItem).toMatchObject({ id: item.id, status: 'closed' });
        expect(result.mergedSHA).toMatch(SHA);
        expect(['fast-forward', 'merge-commit']).toContain(result.strategy);
        expect(await provider.specReader.getDefaultBranchSHA()).toBe(result.mergedSHA);
        expect(result.mergedSHA).not.toBe(before);
        expect(await provider.revisionReader.listRevisions()).toEqual([]);
        expect(await provider.workItemReader.listWorkItems()).toEqual([]);
        expect(await provider.workItemReader.getWorkItem(item.id)).toEqual(result.workItem);
        await expect(merge(revision.id)).rejects.toThrow(new RegExp(revision.id));
      });

      it('refuses, changing nothing, when the item is not approved', async (context) => {
        const { provider, item, revision, merge } = await approvedWithRevision(() => context.skip());
        await provider.workItemWriter.transitionStatus(item.id, 'review');
        const before = await provider.specReader.getDefaultBranchSHA();
        await expect(merge(revision.id)).rejects.toThrow(/not approved/);
        expect(await provider.specReader.getDefaultBranchSHA()).toBe(before);
        expect((await provider.revisionReader.listRevisions()).map((listed) => listed.id)).toEqual([
          revision.id,
        ]);
        expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('review');
      });
    });

    it('has exactly the optional capabilities it declares', async () => {
      const { provider } = await setup();
      expect({
        localAdmin: provider.localAdmin !== undefined,
        history: provider.history !== undefined,
      }).toEqual(capabilities);
    });

    // An optional capability: a tracker Flotilla keeps itself (local, in-memory); the others leave it out and
    // the CLI refuses what only it can do.
    // Registered only where declared: a provider without it has no such cases (none skipped).
    if (capabilities.localAdmin)
      describe('local admin (Provider.localAdmin, optional)', () => {
        async function withAdmin() {
          const created = await setup();
          const admin = created.provider.localAdmin;
          if (admin === undefined) throw new Error('the provider declares localAdmin but has none');
          return { ...created, admin };
        }

        it('creates an item with its first comment and lists closed items too, with every label', async () => {
          const { provider, control, admin } = await withAdmin();
          const held = await admin.createWorkItem(
            { title: 'Held', body: '', labels: ['status:blocked', 'ui'], blockedBy: [] },
            (created) => `Held at creation: #${created.id}.`,
          );
          expect(held).toMatchObject({ title: 'Held', status: 'blocked', kind: 'task' });
          expect(await control.workItemComments(held.id)).toEqual([`Held at creation: #${held.id}.`]);
          const other = await createItem(provider);
          await provider.workItemWriter.transitionStatus(other.id, 'closed');
          expect((await admin.listAllWorkItems()).map((item) => [item.id, item.status])).toEqual([
            [held.id, 'blocked'],
            [other.id, 'closed'],
          ]);
          expect(await admin.getLabels(held.id)).toEqual(expect.arrayContaining(['status:blocked', 'ui']));
          await expect(admin.getLabels('999')).rejects.toThrow(/999/);
        });

        it('edits title, body, labels and blockers at once, null leaving a field unchanged', async () => {
          const { provider, admin } = await withAdmin();
          const blocker = await createItem(provider);
          const item = await createItem(provider, { labels: ['priority:low', 'ui'] });
          const edited = await admin.editWorkItem(item.id, {
            title: 'Renamed',
            body: null,
            labels: ['priority:high', 'task:implement'],
            blockedBy: [blocker.id],
          });
          expect(edited).toMatchObject({ title: 'Renamed', priority: 'high', blockedBy: [blocker.id] });
          expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('Objective: the feature');
          expect(await admin.getLabels(item.id)).not.toContain('ui');
          const again = await admin.editWorkItem(item.id, {
            title: null,
            body: 'New body',
            labels: null,
            blockedBy: null,
          });
          expect(again).toMatchObject({ title: 'Renamed', priority: 'high', blockedBy: [blocker.id] });
          expect(await provider.workItemReader.getWorkItemBody(item.id)).toBe('New body');
        });

        it('closes an item with its open revision and a human comment; without one, closes the item only', async () => {
          const { provider, control, admin } = await withAdmin();
          const item = await createItem(provider);
          const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
          const closed = await admin.closeWorkItem(item.id, { body: 'Not needed.', author: 'Ada' });
          expect(closed?.id).toBe(revision.id);
          expect((await provider.workItemReader.getWorkItem(item.id))?.status).toBe('closed');
          expect(await provider.revisionReader.listRevisions()).toEqual([]);
          expect((await control.workItemComments(item.id)).at(-1)).toContain('Not needed.');
          const bare = await createItem(provider);
          await admin.addHumanComment(bare.id, { body: 'A note', author: 'Ada' });
          expect(await admin.closeWorkItem(bare.id, null)).toBeNull();
          expect((await provider.workItemReader.getWorkItem(bare.id))?.status).toBe('closed');
          expect(await control.workItemComments(bare.id)).toEqual(['A note']);
        });
      });

    // An optional capability: what `flotilla work show`, `diff`, `checks` and the HTTP API show of an item.
    if (capabilities.history)
      describe('history (Provider.history, optional)', () => {
        async function withHistory(options: ProviderContractOptions = { checks: 'none' }) {
          const created = await setup(options);
          const history = created.provider.history;
          if (history === undefined) throw new Error('the provider declares history but has none');
          return { ...created, history };
        }

        it("reads an item's labels, comments and revision with every review round; an unknown id is refused", async () => {
          const { provider, history } = await withHistory();
          const item = await createItem(provider, { labels: ['priority:high'] });
          await provider.workItemWriter.addComment(item.id, 'First note');
          const bare = await history.readItemHistory(item.id);
          expect(bare.labels).toEqual(expect.arrayContaining(['priority:high']));
          expect(bare.comments).toEqual([
            {
              id: expect.stringMatching(/\S/),
              author: expect.any(String),
              body: 'First note',
              createdAt: expect.any(String),
            },
          ]);
          expect(bare.revision).toBeNull();

          const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
          await provider.revisionWriter.postReview(revision.id, changesRequested);
          await provider.revisionWriter.postReview(revision.id, approval);
          const reviewed = await history.readItemHistory(item.id);
          expect(reviewed.revision).toMatchObject({
            id: revision.id,
            headSHA: revision.headSHA,
            state: 'open',
          });
          const reviews = reviewed.revision?.reviews ?? [];
          expect(reviews.map((review) => [review.verdict, review.round])).toEqual([
            ['CHANGES_REQUESTED', 1],
            ['APPROVED', 2],
          ]);
          expect(reviews[0]?.body).toContain('Please add a test');
          expect(reviews[0]?.comments).toEqual(
            expect.arrayContaining([
              { path: 'src/a.ts', line: 1, body: expect.stringContaining('off by one') },
            ]),
          );
          await expect(history.readItemHistory(UNKNOWN_ID)).rejects.toThrow(UNKNOWN_ID);
        });

        it("reads any head's checks log: a passed head's too; none where no checks ran", async () => {
          const { provider, control, history } = await withHistory({ checks: 'passing' });
          const item = await createItem(provider);
          const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
          await control.settleChecks();
          const log = await history.readChecksLog(revision.id);
          expect(log).toEqual({
            text: expect.any(String),
            truncated: false,
            logPath: expect.stringMatching(/\S/),
          });
          // The contract's reader of failed output says nothing of a passed head.
          expect((await provider.revisionReader.getChecksOutputTail?.(revision.id)) ?? null).toBeNull();

          const none = await withHistory({ checks: 'none' });
          const unchecked = await none.provider.revisionWriter.createFromPatch(
            revisionInput(await createItem(none.provider)),
          );
          expect(await none.history.readChecksLog(unchecked.id)).toBeNull();
        });

        it("reads a failed head's checks output", async () => {
          const { provider, control, history } = await withHistory({ checks: 'failing' });
          const item = await createItem(provider);
          const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
          await control.settleChecks();
          expect((await history.readChecksLog(revision.id))?.text).toContain('1 test failed');
        });
      });

    describe('pipelines', () => {
      const pipelineOf = async (provider: Provider, revision: Revision) =>
        (await provider.revisionReader.listRevisions()).find((listed) => listed.id === revision.id)?.pipeline;

      it('with no checks configured, a new head is green at once', async () => {
        const { provider } = await setup({ checks: 'none' });
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        expect(revision.pipeline).toEqual({ status: 'success', url: null, reason: null });
        expect(await pipelineOf(provider, revision)).toEqual({ status: 'success', url: null, reason: null });
      });

      it('passing checks: pending after a push, then success with where to read the output; a re-push is pending again', async () => {
        const { provider, control } = await setup({ checks: 'passing' });
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        expect(revision.pipeline).toEqual({ status: 'pending', url: null, reason: null });
        await control.settleChecks();
        expect(await pipelineOf(provider, revision)).toEqual({
          status: 'success',
          url: expect.stringMatching(/\S/),
          reason: null,
        });

        const pushed = await provider.revisionWriter.createFromPatch(
          revisionInput(item, { patch: buildContractAddPatch('src/b.ts', 'b\n') }),
        );
        expect(pushed.pipeline?.status).toBe('pending');
        await control.settleChecks();
        expect((await pipelineOf(provider, revision))?.status).toBe('success');
      });

      it('failing checks: failure with a reason and where to read the output', async () => {
        const { provider, control } = await setup({ checks: 'failing' });
        const item = await createItem(provider);
        const revision = await provider.revisionWriter.createFromPatch(revisionInput(item));
        expect(revision.pipeline?.status).toBe('pending');
        await control.settleChecks();
        const pipeline = await pipelineOf(provider, revision);
        expect(pipeline?.status).toBe('failure');
        expect(pipeline?.reason).toEqual(expect.stringMatching(/\S/));
        expect(pipeline?.url).toEqual(expect.stringMatching(/\S/));
        expect((await provider.revisionReader.getRevision(revision.id))?.pipeline).toEqual(pipeline);
      });
    });

    describe('specs', () => {
      it('lists specs on the default branch with their status and blob SHA', async () => {
        const { provider, control } = await setup();
        expect(await provider.specReader.listSpecs()).toEqual({ specs: [], problems: [] });
        const specs = [
          { filePath: 'docs/specs/api.md', status: 'approved' as const },
          { filePath: 'docs/specs/ui.md', status: 'draft' as const },
          { filePath: 'docs/specs/old.md', status: 'deprecated' as const },
        ];
        for (const spec of specs) {
          await control.addSpec({ ...spec, content: specContent(spec.status, spec.filePath) });
        }
        const listing = await provider.specReader.listSpecs();
        expect(listing.problems).toEqual([]);
        expect([...listing.specs].sort((a, b) => a.filePath.localeCompare(b.filePath))).toEqual(
          specs
            .map((spec) => ({
              filePath: spec.filePath,
              frontmatterStatus: spec.status,
              blobSHA: gitBlobSHA(specContent(spec.status, spec.filePath)),
            }))
            .sort((a, b) => a.filePath.localeCompare(b.filePath)),
        );
      });

      it('reports a spec with broken frontmatter as a problem naming the file, never as approved', async () => {
        const { provider, control } = await setup();
        await control.addSpec({
          filePath: 'docs/specs/good.md',
          status: 'approved',
          content: specContent('approved', 'good'),
        });
        await control.addBrokenSpec({
          filePath: 'docs/specs/broken.md',
          content: '---\nstatus: [approved\n---\n',
        });
        const listing = await provider.specReader.listSpecs();
        expect(listing.problems).toEqual([
          { filePath: 'docs/specs/broken.md', message: expect.stringMatching(/\S/) },
        ]);
        // The local provider lists it as a draft as well; the in-memory double leaves it out. Either way the
        // planner never sees it as approved, and the good spec is unaffected.
        expect(listing.specs.filter((spec) => spec.filePath === 'docs/specs/broken.md')).not.toContainEqual(
          expect.objectContaining({ frontmatterStatus: 'approved' }),
        );
        expect(listing.specs).toContainEqual(
          expect.objectContaining({ filePath: 'docs/specs/good.md', frontmatterStatus: 'approved' }),
        );
      });

      it('reads a spec by the blob SHA listed, byte for byte, an older version included', async () => {
        const { provider, control } = await setup();
        const first = `${specContent('approved', 'api')}no newline at end`;
        await control.addSpec({ filePath: 'docs/specs/api.md', status: 'approved', content: first });
        const [listed] = (await provider.specReader.listSpecs()).specs;
        await control.addSpec({
          filePath: 'docs/specs/api.md',
          status: 'approved',
          content: specContent('approved', 'api v2'),
        });
        expect(listed?.blobSHA).toBe(gitBlobSHA(first));
        expect(await provider.specReader.readSpecBlob(gitBlobSHA(first))).toBe(first);
        const missing = gitBlobSHA('never committed\n');
        await expect(provider.specReader.readSpecBlob(missing)).rejects.toThrow(missing);
      });

      it('reports the default branch head, which moves when a spec is committed', async () => {
        const { provider, control } = await setup();
        const before = await provider.specReader.getDefaultBranchSHA();
        expect(before).toMatch(SHA);
        await control.addSpec({
          filePath: 'docs/specs/api.md',
          status: 'approved',
          content: specContent('approved', 'api'),
        });
        const after = await provider.specReader.getDefaultBranchSHA();
        expect(after).toMatch(SHA);
        expect(after).not.toBe(before);
      });
    });
  });
}
