import { describe, expect, it } from 'vitest';
import type { Proposal } from './proposal.ts';
import {
  buildDecisionComment,
  buildFeedbackComment,
  buildProposalComment,
  findProposalDecision,
  parseProposalData,
} from './proposal-comments.ts';

const proposal: Proposal = {
  id: '12',
  kind: 'plan',
  status: 'pending',
  sessionID: 's',
  specSHAs: { 'docs/specs/a.md': 'sha-a' },
  basePlannedSHAs: {},
  result: {
    role: 'planner',
    create: [
      {
        tempID: 'x',
        title: 'Parse --> input',
        body: 'Objective: a > b\nmore',
        labels: ['priority:high'],
        blockedBy: [],
      },
      { tempID: 'y', title: 'Wire', body: '', labels: [], blockedBy: ['x'] },
    ],
    close: ['3'],
    update: [{ workItemID: '4', body: 'new', labels: null }],
  },
  revises: null,
  createdAt: 1,
  decidedAt: null,
  decidedBy: null,
  reason: null,
};

const comment = (author: string, body: string) => ({ author, body });

describe('a proposal comment', () => {
  it('lists what applying it does, and its hidden block gives the plan back exactly', () => {
    const body = buildProposalComment(proposal);
    expect(body).toContain('1. **Parse --> input** (`x`) — labels priority:high');
    expect(body).toContain('2. **Wire** (`y`) — blocked by x');
    expect(body).toContain('Close: #3');
    expect(body).toContain('Update #4: body');
    // A title with `-->` cannot end the hidden block early.
    const block = body.slice(body.indexOf('<!-- flotilla:proposal-data'));
    expect(block.match(/-->/g)).toEqual(['-->']);
    expect(block.endsWith('-->')).toBe(true);
    expect(parseProposalData(body)).toEqual({
      id: '12',
      kind: 'plan',
      specSHAs: proposal.specSHAs,
      revises: null,
      result: proposal.result,
    });
    expect(parseProposalData('no block here')).toBeNull();
  });
});

describe('findProposalDecision', () => {
  const posted = comment('flotilla', buildProposalComment(proposal));

  it('takes the first /accept or /reject after the latest proposal comment', () => {
    expect(
      findProposalDecision([
        comment('ada', '/accept'),
        posted,
        comment('ada', 'looks fine, but wait'),
        comment('bob', '/REJECT  split the first item\nand name the files'),
        comment('ada', '/accept'),
      ]),
    ).toEqual({ decision: 'reject', reason: 'split the first item\nand name the files', author: 'bob' });
  });

  it('reads the decisions the CLI posts, and ignores Flotilla’s other comments and near-misses', () => {
    expect(findProposalDecision([posted, comment('me', buildDecisionComment('accept', ''))])).toEqual({
      decision: 'accept',
      reason: null,
      author: 'me',
    });
    expect(
      findProposalDecision([
        posted,
        comment('flotilla', '<!-- flotilla:proposal-stale -->\n/accept'),
        comment('ada', '/accepted?'),
        comment('ada', 'I would /accept this'),
      ]),
    ).toBeNull();
    expect(findProposalDecision([comment('ada', '/accept')])).toBeNull();
  });

  it('with feedback (the proposal’s own item): plain replies are a rejection carrying them all, in order', () => {
    expect(
      findProposalDecision(
        [
          comment('ada', 'an early remark, before the proposal'),
          posted,
          comment('flotilla', '<!-- flotilla:proposal-stale -->\nThis proposal is stale'),
          comment('ada', '  Split the parser into its own item  '),
          comment('bob', 'and name the files'),
          comment('ada', '   '),
        ],
        { feedback: true },
      ),
    ).toEqual({
      decision: 'reject',
      reason: 'Split the parser into its own item\n\nand name the files',
      author: 'ada, bob',
      feedback: true,
    });
    // The same replies elsewhere (the item an investigation is about) are discussion, not a decision.
    expect(findProposalDecision([posted, comment('ada', 'Split the parser')])).toBeNull();
    // Only Flotilla's own comments after the proposal: nothing yet.
    expect(
      findProposalDecision([posted, comment('flotilla', '<!-- flotilla:proposal-rejected -->\nx')], {
        feedback: true,
      }),
    ).toBeNull();
  });

  it('with feedback: an explicit /accept wins, a /reject carries the feedback before it', () => {
    const feedback = { feedback: true };
    expect(
      findProposalDecision([posted, comment('ada', 'one nit'), comment('ada', '/accept')], feedback),
    ).toEqual({ decision: 'accept', reason: null, author: 'ada' });
    expect(
      findProposalDecision(
        [posted, comment('ada', 'one nit'), comment('bob', '/reject and split it'), comment('ada', 'later')],
        feedback,
      ),
    ).toEqual({ decision: 'reject', reason: 'one nit\n\nand split it', author: 'bob' });
  });

  it('reads the feedback `flotilla proposals comment` posts as text, never as a command', () => {
    expect(
      findProposalDecision([posted, comment('me', buildFeedbackComment(' /accept is wrong here '))]),
    ).toEqual({ decision: 'reject', reason: '/accept is wrong here', author: 'me', feedback: true });
    expect(findProposalDecision([posted, comment('me', buildFeedbackComment('  '))])).toBeNull();
  });
});
