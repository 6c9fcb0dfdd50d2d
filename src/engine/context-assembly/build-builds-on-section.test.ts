import { describe, expect, it } from 'vitest';
import { buildRevision, buildTestState, buildWorkItem } from '../../../test/support/shared/builders/index.ts';
import { getStackBase } from '../state-store/selectors/index.ts';
import { buildBuildsOnSection } from './build-builds-on-section.ts';

describe('what a dependent item builds on', () => {
  const state = buildTestState({
    workItems: [
      buildWorkItem({ id: 'a', title: 'Add wordCount', status: 'approved', linkedRevision: 'r-a' }),
      buildWorkItem({ id: 'm', title: 'Merged helper', status: 'closed' }),
      buildWorkItem({ id: 'open', title: 'Still in review', status: 'review', linkedRevision: 'r-o' }),
      buildWorkItem({
        id: 'lost',
        title: 'Approved, revision unknown',
        status: 'approved',
        linkedRevision: 'gone',
      }),
    ],
    revisions: [
      buildRevision({ id: 'r-a', workItemID: 'a', headSHA: 'a'.repeat(40) }),
      buildRevision({ id: 'r-o', workItemID: 'open', headSHA: 'o'.repeat(40) }),
    ],
  });

  it('stacks on approved blockers with an open revision and names merged ones, in blockedBy order', () => {
    const base = getStackBase(state, { blockedBy: ['m', 'open', 'a', 'lost', 'unknown'] });
    expect(base).toEqual({
      stacked: [
        {
          workItemID: 'a',
          title: 'Add wordCount',
          revisionID: 'r-a',
          headSHA: 'a'.repeat(40),
          headRef: 'flotilla/a',
        },
      ],
      closed: [{ workItemID: 'm', title: 'Merged helper' }],
    });
    const section = buildBuildsOnSection(base, null);
    expect(section).toContain('## Builds On');
    expect(section).toContain(
      '- #a "Add wordCount": approved, not merged yet — revision #r-a (branch `flotilla/a` at aaaaaaaaaaaa)',
    );
    expect(section).toContain('- #m "Merged helper": closed');
    expect(section).toContain('do not redo it');
    expect(section).not.toContain('#open');
  });

  it('says nothing without blockers or a rework, and tells a rework what its worktree holds', () => {
    const none = getStackBase(state, { blockedBy: [] });
    expect(buildBuildsOnSection(none, null)).toBe('');
    expect(buildBuildsOnSection(none, { revisionID: '7' })).toMatch(
      /^## Builds On\nYour worktree starts with this item's previous revision \(#7\) rebased onto the current default branch/,
    );
  });
});
