import { describe, expect, it } from 'vitest';
import { buildRevisionFeedback } from '../../test/support/shared/builders/index.ts';
import { asksForRework, isApprovalOf, listPatchFiles, mentionsTrigger } from './revision-feedback.ts';

describe('mentionsTrigger', () => {
  it.each([
    ['@flotilla please trim', true],
    ['Hey @Flotilla, a question', true],
    ['(@flotilla)', true],
    ['ping @flotilla.', true],
    ['cc @flotilla-bot', false],
    ['mail me@flotilla.dev', false],
    ['@flotillas', false],
    ['flotilla', false],
    ['@flotilla.dev is a site', false],
  ])('%j → %s', (body, expected) => {
    expect(mentionsTrigger(body, '@flotilla')).toBe(expected);
  });
});

describe('isApprovalOf / asksForRework', () => {
  it('an approval counts only on the head it approved; everything else asks for rework', () => {
    const approval = buildRevisionFeedback({ state: 'APPROVED', commitSHA: 'abc' });
    expect([isApprovalOf(approval, 'abc'), isApprovalOf(approval, 'def'), asksForRework(approval)]).toEqual([
      true,
      false,
      false,
    ]);
    const comment = buildRevisionFeedback({ kind: 'comment', state: null });
    expect([isApprovalOf(comment, 'head-rev-1'), asksForRework(comment)]).toEqual([false, true]);
  });
});

describe('listPatchFiles', () => {
  it('lists the b/ side of each file of a patch once, in order', () => {
    const patch =
      'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n' +
      'diff --git a/old.txt b/new.txt\nrename from old.txt\nrename to new.txt\n';
    expect(listPatchFiles(patch)).toEqual(['src/a.ts', 'new.txt']);
    expect(listPatchFiles('')).toEqual([]);
  });
});
