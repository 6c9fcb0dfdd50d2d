import { describe, expect, it } from 'vitest';
import { buildRevision } from '../../../test/support/shared/builders/build-revision.ts';
import { buildWorkItem } from '../../../test/support/shared/builders/build-work-item.ts';
import type { ReviewHistory, RevisionFile } from '../../domain/index.ts';
import { buildInitialEngineState } from '../state-store/engine-state.ts';
import { buildReviewerContext, type ReviewerContextDeps } from './build-reviewer-context.ts';

const FILES: RevisionFile[] = [
  { path: 'src/login.ts', status: 'added', patch: '@@ -0,0 +1 @@\n+export const login = 1;\n' },
  { path: 'docs/diagram.png', status: 'modified', patch: null },
];
const HISTORY: ReviewHistory = {
  reviews: [{ author: 'flotilla', state: 'CHANGES_REQUESTED', body: 'Missing tests.' }],
  inlineComments: [{ path: 'src/login.ts', line: 1, author: 'flotilla', body: 'Name it better.' }],
};

function deps(history: ReviewHistory = HISTORY) {
  const state = buildInitialEngineState({
    workItems: {
      '12': buildWorkItem({ id: '12', title: 'Add login', status: 'review', linkedRevision: '40' }),
    },
    revisions: {
      '40': buildRevision({
        id: '40',
        title: 'feat: login',
        workItemID: '12',
        pipeline: { status: 'failure', url: 'https://ci.example/1', reason: 'lint' },
      }),
    },
  });
  const value: ReviewerContextDeps = {
    getState: () => state,
    workItemReader: {
      getWorkItem: async () => null,
      getWorkItemBody: async () => 'Build the login form.\n\n## Acceptance Criteria\n- works\n',
    },
    revisionReader: { getRevision: async () => null, getRevisionFiles: async () => FILES },
    getReviewHistory: async () => history,
  };
  return value;
}

describe('buildReviewerContext', () => {
  it('Given a Reviewer session, when context is assembled, then the prompt includes work item body, revision files, and review history', async () => {
    const prompt = await buildReviewerContext({ workItemID: '12', revisionID: '40' }, deps());
    expect(prompt).toBe(
      `${[
        '## Work Item #12 — Add login',
        'Build the login form.\n\n## Acceptance Criteria\n- works',
        '### Status\nreview',
        '## Revision #40 — feat: login',
        '### Changed Files',
        '#### src/login.ts (added)\n```\n@@ -0,0 +1 @@\n+export const login = 1;\n```',
        '#### docs/diagram.png (modified)',
        '### Prior Reviews',
        '#### Review by flotilla — CHANGES_REQUESTED',
        'Missing tests.',
        '### Prior Inline Comments',
        '#### src/login.ts:1 — flotilla',
        'Name it better.',
      ].join('\n\n')}\n`,
    );
  });

  it('has no CI section, even when the pipeline failed (not part of the reviewer format)', async () => {
    const prompt = await buildReviewerContext({ workItemID: '12', revisionID: '40' }, deps());
    expect(prompt).not.toContain('CI Status');
  });

  it('Given a Reviewer session for a first-time review (no prior reviews), when `getReviewHistory` returns empty arrays, then the "Prior Reviews" and "Prior Inline Comments" sections are omitted', async () => {
    const prompt = await buildReviewerContext(
      { workItemID: '12', revisionID: '40' },
      deps({ reviews: [], inlineComments: [] }),
    );
    expect(prompt).not.toContain('Prior Reviews');
    expect(prompt).not.toContain('Prior Inline Comments');
    expect(prompt.endsWith('#### docs/diagram.png (modified)\n')).toBe(true);
  });

  it('Given a revision file with `patch: null`, when the enriched prompt is built, then the file entry includes the path and status but no code block', async () => {
    const prompt = await buildReviewerContext({ workItemID: '12', revisionID: '40' }, deps());
    const entry = prompt.slice(prompt.indexOf('#### docs/diagram.png'), prompt.indexOf('### Prior Reviews'));
    expect(entry).toBe('#### docs/diagram.png (modified)\n\n');
    expect(prompt.match(/```/g)).toHaveLength(2);
  });

  it('shows only inline comments when there are no reviews', async () => {
    const prompt = await buildReviewerContext(
      { workItemID: '12', revisionID: '40' },
      deps({ reviews: [], inlineComments: HISTORY.inlineComments }),
    );
    expect(prompt).not.toContain('Prior Reviews');
    expect(prompt).toContain(
      '### Prior Inline Comments\n\n#### src/login.ts:1 — flotilla\n\nName it better.\n',
    );
  });

  it('rejects naming the fetch that failed', async () => {
    const failing = deps();
    failing.revisionReader.getRevisionFiles = async () => {
      throw new Error('not found');
    };
    await expect(buildReviewerContext({ workItemID: '12', revisionID: '40' }, failing)).rejects.toThrow(
      'Cannot fetch the files of revision #40: not found',
    );
    const noBody = deps();
    noBody.workItemReader.getWorkItemBody = async () => {
      throw new Error('gone');
    };
    await expect(buildReviewerContext({ workItemID: '12', revisionID: '40' }, noBody)).rejects.toThrow(
      'Cannot fetch the body of work item #12: gone',
    );
  });
});
