import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../domain/index.ts';
import { buildModeRevisionSection } from './build-mode-revision-section.ts';

const REPORT = {
  mode: 'investigate' as const,
  summary: 'Off by one.',
  rootCause: 'The loop stops early.',
  evidence: ['test fails'],
  files: ['src/sum.js'],
  fixes: [{ tempID: 'a', title: 'Fix the loop', body: 'Fix.', labels: [], blockedBy: [] }],
};

function proposal(id: string, overrides: Partial<Proposal>): Proposal {
  return {
    id,
    kind: 'investigation',
    status: 'rejected',
    sessionID: `s-${id}`,
    specSHAs: {},
    basePlannedSHAs: {},
    result: { role: 'planner', create: [], close: [], update: [] },
    revises: null,
    createdAt: Number(id),
    decidedAt: Number(id) + 1,
    decidedBy: 'ada',
    reason: 'Look at the parser too',
    subjectID: '7',
    report: REPORT,
    ...overrides,
  };
}

const bug = { id: '7', mode: 'investigate' as const };

describe('buildModeRevisionSection', () => {
  it("gives a re-run the human's reason and the rejected report", () => {
    const section = buildModeRevisionSection(bug, { '40': proposal('40', {}) });
    expect(section).toContain('## Revision of the rejected investigation');
    expect(section).toContain('### Their reason\nLook at the parser too');
    expect(section).toContain('"rootCause": "The loop stops early."');
  });

  it('is empty without a rejection with a reason, or once a later proposal exists', () => {
    expect(buildModeRevisionSection(bug, {})).toBe('');
    expect(buildModeRevisionSection(bug, { '40': proposal('40', { reason: '  ' }) })).toBe('');
    expect(buildModeRevisionSection(bug, { '40': proposal('40', { subjectID: '8' }) })).toBe('');
    expect(
      buildModeRevisionSection(bug, {
        '40': proposal('40', {}),
        '41': proposal('41', { status: 'pending', reason: null, decidedAt: null }),
      }),
    ).toBe('');
    expect(buildModeRevisionSection({ id: '7' }, { '40': proposal('40', {}) })).toBe('');
  });
});
