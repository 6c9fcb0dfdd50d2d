import { describe, expect, it } from 'vitest';
import { buildRevision } from '../../../test/support/shared/builders/build-revision.ts';
import { buildWorkItem } from '../../../test/support/shared/builders/build-work-item.ts';
import type { ReviewHistory, Revision, RevisionFile, WorkItem } from '../../domain/index.ts';
import type { ChecksOutputTail } from '../../providers/types.ts';
import { buildInitialEngineState, type EngineState } from '../state-store/engine-state.ts';
import { buildImplementorContext, type ImplementorContextDeps } from './build-implementor-context.ts';

const EMPTY_HISTORY: ReviewHistory = { reviews: [], inlineComments: [] };

const FILES: RevisionFile[] = [
  { path: 'src/login.ts', status: 'modified', patch: '@@ -1 +1 @@\n-old\n+new\n' },
  { path: 'assets/logo.png', status: 'added', patch: null },
];

interface Fixture {
  workItems?: WorkItem[];
  revisions?: Revision[];
  bodies?: Record<string, string>;
  files?: RevisionFile[];
  history?: ReviewHistory;
  checksOutput?: ChecksOutputTail | Error;
  mergeConflicts?: EngineState['mergeConflicts'];
}

function deps(fixture: Fixture = {}) {
  const calls: string[] = [];
  const state = buildInitialEngineState({
    workItems: Object.fromEntries((fixture.workItems ?? []).map((item) => [item.id, item])),
    revisions: Object.fromEntries((fixture.revisions ?? []).map((given) => [given.id, given])),
    mergeConflicts: fixture.mergeConflicts ?? {},
  });
  const value: ImplementorContextDeps = {
    getState: () => state,
    workItemReader: {
      getWorkItem: async (id) => {
        calls.push(`getWorkItem ${id}`);
        return null;
      },
      getWorkItemBody: async (id) => {
        calls.push(`getWorkItemBody ${id}`);
        const body = fixture.bodies?.[id];
        if (body === undefined) throw new Error(`no work item ${id}`);
        return body;
      },
    },
    revisionReader: {
      getRevision: async (id) => {
        calls.push(`getRevision ${id}`);
        return null;
      },
      getRevisionFiles: async (id) => {
        calls.push(`getRevisionFiles ${id}`);
        return fixture.files ?? FILES;
      },
      getChecksOutputTail: async (id) => {
        calls.push(`getChecksOutputTail ${id}`);
        if (fixture.checksOutput instanceof Error) throw fixture.checksOutput;
        return fixture.checksOutput ?? null;
      },
    },
    getReviewHistory: async (id) => {
      calls.push(`getReviewHistory ${id}`);
      return fixture.history ?? EMPTY_HISTORY;
    },
  };
  return { deps: value, calls };
}

const unlinked = buildWorkItem({ id: '12', title: 'Add login', status: 'in-progress', linkedRevision: null });
const linked = buildWorkItem({ id: '12', title: 'Add login', status: 'in-progress', linkedRevision: '40' });
const revision = (pipeline: Revision['pipeline']) =>
  buildRevision({ id: '40', title: 'feat: login', workItemID: '12', pipeline });

describe('buildImplementorContext', () => {
  it('Given an Implementor session for a work item with no linked revision, when context is assembled, then the prompt contains only the work item section (no revision, reviews, or CI sections)', async () => {
    const { deps: d, calls } = deps({ workItems: [unlinked], bodies: { '12': 'Build the login form.\n' } });
    const prompt = await buildImplementorContext({ workItemID: '12' }, d);
    expect(prompt).toBe('## Work Item #12 — Add login\n\nBuild the login form.\n\n### Status\nin-progress\n');
    expect(calls).toEqual(['getWorkItemBody 12']);
  });

  it('shows the conflict the merge queue sent the item back with, after the revision sections', async () => {
    const { deps: d } = deps({
      workItems: [linked],
      revisions: [revision({ status: 'success', url: null, reason: null })],
      bodies: { '12': 'Build the login form.\n' },
      mergeConflicts: {
        '12': {
          revisionID: '40',
          headSHA: 'a'.repeat(40),
          baseSHA: 'b'.repeat(40),
          files: [
            { path: 'src/login.ts', hunks: ['<<<<<<< main\nold\n=======\nnew\n>>>>>>> flotilla/12\n'] },
          ],
        },
      },
    });
    const prompt = await buildImplementorContext({ workItemID: '12' }, d);
    const section = prompt.slice(prompt.indexOf('## Merge Conflict'));
    expect(prompt.indexOf('## Merge Conflict')).toBeGreaterThan(prompt.indexOf('## Revision'));
    expect(section).toContain(
      `Revision #40 (${'a'.repeat(12)}) no longer applies to the default branch (${'b'.repeat(12)}). Conflicting files:\n\n- \`src/login.ts\``,
    );
    expect(section).toContain('```\n<<<<<<< main\nold\n=======\nnew\n>>>>>>> flotilla/12\n```');
    expect(section).toContain("Make this item's change again on top of it");
  });

  it('Given an Implementor session for a work item with a linked revision, when context is assembled, then the prompt includes revision files fetched via the revision reader', async () => {
    const { deps: d, calls } = deps({
      workItems: [linked],
      revisions: [revision({ status: 'success', url: null, reason: null })],
      bodies: { '12': 'Build the login form.' },
      history: {
        reviews: [
          { author: 'flotilla-reviewer', state: 'CHANGES_REQUESTED', body: 'Handle empty passwords.' },
        ],
        inlineComments: [
          { path: 'src/login.ts', line: 3, author: 'alice', body: 'Trim the input.' },
          { path: 'README.md', line: null, author: 'bob', body: 'Document it.' },
        ],
      },
    });
    const prompt = await buildImplementorContext({ workItemID: '12' }, d);
    expect(prompt).toBe(
      `${[
        '## Work Item #12 — Add login',
        'Build the login form.',
        '### Status\nin-progress',
        '## Revision #40 — feat: login',
        '### Changed Files',
        '#### src/login.ts (modified)\n```\n@@ -1 +1 @@\n-old\n+new\n```',
        '#### assets/logo.png (added)',
        '### Prior Reviews',
        '#### Review by flotilla-reviewer — CHANGES_REQUESTED',
        'Handle empty passwords.',
        '### Prior Inline Comments',
        '#### src/login.ts:3 — alice',
        'Trim the input.',
        '#### README.md — bob',
        'Document it.',
      ].join('\n\n')}\n`,
    );
    expect(calls).toContain('getRevisionFiles 40');
    expect(calls).toContain('getReviewHistory 40');
  });

  it('Given an Implementor session for a work item whose linked revision has `pipeline.status` of `failure`, when context is assembled, then the prompt includes a CI status section', async () => {
    const { deps: d } = deps({
      workItems: [linked],
      revisions: [revision({ status: 'failure', url: 'https://ci.example/runs/7', reason: 'test: unit' })],
      bodies: { '12': 'Body' },
    });
    const prompt = await buildImplementorContext({ workItemID: '12' }, d);
    expect(prompt).toContain('\n\n### CI Status: FAILURE\n\ntest: unit: https://ci.example/runs/7\n');
    expect(prompt.indexOf('### CI Status')).toBeGreaterThan(prompt.indexOf('#### assets/logo.png'));
  });

  it('adds the end of the checks output under the CI status, saying when it was truncated', async () => {
    const failed = revision({
      status: 'failure',
      url: '/logs/40.log',
      reason: '`npm test` exited with code 1',
    });
    const whole = deps({
      workItems: [linked],
      revisions: [failed],
      bodies: { '12': 'Body' },
      checksOutput: {
        text: 'FAIL add.test.js\nexpected 3, got 4',
        truncated: false,
        logPath: '/logs/40.log',
      },
    });
    expect(await buildImplementorContext({ workItemID: '12' }, whole.deps)).toContain(
      '### CI Status: FAILURE\n\n`npm test` exited with code 1: /logs/40.log\n\nChecks output:\n\n```\nFAIL add.test.js\nexpected 3, got 4\n```',
    );
    expect(whole.calls).toContain('getChecksOutputTail 40');
    const cut = deps({
      workItems: [linked],
      revisions: [failed],
      bodies: { '12': 'Body' },
      checksOutput: { text: 'a\nb', truncated: true, logPath: '/logs/40.log' },
    });
    expect(await buildImplementorContext({ workItemID: '12' }, cut.deps)).toContain(
      'Checks output (truncated: the last 2 lines; the whole log is /logs/40.log):\n\n```\na\nb\n```',
    );
  });

  it('still builds the prompt when the checks output cannot be read', async () => {
    const { deps: d } = deps({
      workItems: [linked],
      revisions: [revision({ status: 'failure', url: '/logs/40.log', reason: 'unit' })],
      bodies: { '12': 'Body' },
      checksOutput: new Error('EACCES'),
    });
    const prompt = await buildImplementorContext({ workItemID: '12' }, d);
    expect(prompt).toContain('### CI Status: FAILURE\n\nunit: /logs/40.log\n');
    expect(prompt).not.toContain('Checks output');
  });

  it('writes what is known of a failed pipeline when it has no reason or url', async () => {
    const { deps: d } = deps({
      workItems: [linked],
      revisions: [revision({ status: 'failure', url: '.flotilla/checks/40.log', reason: null })],
      bodies: { '12': 'Body' },
    });
    expect(await buildImplementorContext({ workItemID: '12' }, d)).toContain(
      '### CI Status: FAILURE\n\nChecks failed: .flotilla/checks/40.log',
    );
  });

  it.each([
    ['success', { status: 'success', url: null, reason: null }],
    ['pending', { status: 'pending', url: null, reason: null }],
    ['unknown (null)', null],
  ] as const)(
    'Given an Implementor session for a work item whose linked revision has `pipeline.status` of `%s`, when context is assembled, then no CI status section is included',
    async (_label, pipeline) => {
      const { deps: d } = deps({
        workItems: [linked],
        revisions: [revision(pipeline)],
        bodies: { '12': 'Body' },
      });
      const prompt = await buildImplementorContext({ workItemID: '12' }, d);
      expect(prompt).toContain('## Revision #40');
      expect(prompt).not.toContain('CI Status');
    },
  );

  it('Given an Implementor session for a work item with a linked revision but no prior reviews, when `getReviewHistory` returns empty arrays, then the "Prior Reviews" and "Prior Inline Comments" sections are omitted', async () => {
    const { deps: d } = deps({
      workItems: [linked],
      revisions: [revision({ status: 'success', url: null, reason: null })],
      bodies: { '12': 'Body' },
      history: EMPTY_HISTORY,
    });
    const prompt = await buildImplementorContext({ workItemID: '12' }, d);
    expect(prompt).toContain('### Changed Files');
    expect(prompt).not.toContain('Prior Reviews');
    expect(prompt).not.toContain('Prior Inline Comments');
    expect(prompt.endsWith('#### assets/logo.png (added)\n')).toBe(true);
  });

  it('uses a longer fence when a patch contains backticks', async () => {
    const { deps: d } = deps({
      workItems: [linked],
      revisions: [revision(null)],
      bodies: { '12': 'Body' },
      files: [{ path: 'README.md', status: 'modified', patch: '+```ts\n+code\n+```' }],
    });
    expect(await buildImplementorContext({ workItemID: '12' }, d)).toContain(
      '#### README.md (modified)\n````\n+```ts\n+code\n+```\n````',
    );
  });

  it('falls back to the provider for a revision the store does not have', async () => {
    const { deps: d, calls } = deps({ workItems: [linked], bodies: { '12': 'Body' } });
    d.revisionReader.getRevision = async (id) => {
      calls.push(`getRevision ${id}`);
      return revision(null);
    };
    expect(await buildImplementorContext({ workItemID: '12' }, d)).toContain('## Revision #40 — feat: login');
    expect(calls).toContain('getRevision 40');
  });

  describe('Given `startAgent` is called for any role, when a context assembly fetch fails (spec read, work item body, revision files), then the promise rejects', () => {
    it('rejects naming the work item body that could not be fetched', async () => {
      const { deps: d } = deps({ workItems: [unlinked], bodies: {} });
      await expect(buildImplementorContext({ workItemID: '12' }, d)).rejects.toThrow(
        'Cannot fetch the body of work item #12: no work item 12',
      );
    });

    it('rejects naming the revision files that could not be fetched', async () => {
      const { deps: d } = deps({
        workItems: [linked],
        revisions: [revision(null)],
        bodies: { '12': 'Body' },
      });
      d.revisionReader.getRevisionFiles = async () => {
        throw new Error('HTTP 502');
      };
      await expect(buildImplementorContext({ workItemID: '12' }, d)).rejects.toThrow(
        'Cannot fetch the files of revision #40: HTTP 502',
      );
    });

    it('rejects naming the review history that could not be fetched', async () => {
      const { deps: d } = deps({
        workItems: [linked],
        revisions: [revision(null)],
        bodies: { '12': 'Body' },
      });
      d.getReviewHistory = async () => {
        throw new Error('rate limited');
      };
      await expect(buildImplementorContext({ workItemID: '12' }, d)).rejects.toThrow(
        'Cannot fetch the review history of revision #40: rate limited',
      );
    });

    it('rejects when the work item exists nowhere', async () => {
      const { deps: d } = deps({ bodies: {} });
      await expect(buildImplementorContext({ workItemID: '99' }, d)).rejects.toThrow(
        'Cannot fetch work item #99: it does not exist',
      );
    });

    it('rejects when the linked revision exists nowhere', async () => {
      const { deps: d } = deps({ workItems: [linked], bodies: { '12': 'Body' } });
      await expect(buildImplementorContext({ workItemID: '12' }, d)).rejects.toThrow(
        'Cannot fetch revision #40: it does not exist',
      );
    });
  });
});
