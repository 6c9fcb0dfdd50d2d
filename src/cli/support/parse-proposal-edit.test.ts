import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../domain/index.ts';
import { buildProposalEditText, parseProposalEdit } from './parse-proposal-edit.ts';

const investigation: Proposal = {
  id: '5',
  kind: 'investigation',
  status: 'pending',
  sessionID: 's1',
  specSHAs: {},
  basePlannedSHAs: {},
  result: { role: 'planner', create: [], close: [], update: [] },
  revises: null,
  createdAt: 0,
  decidedAt: null,
  decidedBy: null,
  reason: null,
  subjectID: '2',
  report: {
    mode: 'investigate',
    summary: 'greet() assumes a name.',
    rootCause: 'name.trim() on undefined',
    evidence: ['TypeError'],
    files: ['src/greet.js'],
    fixes: [{ tempID: 'fix', title: 'Default the name', body: 'b', labels: [], blockedBy: [] }],
  },
};

describe('parseProposalEdit', () => {
  it('reads back the text it offers, and an edit of it', () => {
    const text = buildProposalEditText(investigation);
    expect(parseProposalEdit('investigation', text)).toEqual({
      ok: true,
      edit: { report: investigation.report },
    });
    const edited = text.replace('title: Default the name', 'title: Default the name to "world"');
    const parsed = parseProposalEdit('investigation', edited);
    expect(
      parsed.ok && parsed.edit.report?.mode === 'investigate' && parsed.edit.report.fixes[0]?.title,
    ).toBe('Default the name to "world"');
  });

  it('names the line of a field the schema refuses', () => {
    const text = buildProposalEditText(investigation).replace('title: Default the name', 'title: 42');
    const line = text.split('\n').findIndex((l) => l.includes('title: 42')) + 1;
    expect(parseProposalEdit('investigation', text)).toEqual({
      ok: false,
      error: `line ${line}: fixes[0].title: Invalid input: expected string, received number`,
    });
  });

  it('names the line of a YAML syntax error, and refuses an empty file', () => {
    const text = buildProposalEditText(investigation).replace('rootCause: ', 'rootCause: [unclosed ');
    const line = text.split('\n').findIndex((l) => l.includes('[unclosed')) + 1;
    const parsed = parseProposalEdit('investigation', text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(new RegExp(`^line (${line}|${line + 1}): `));
    expect(parseProposalEdit('plan', '# nothing\n')).toEqual({
      ok: false,
      error: 'line 1: the file is empty',
    });
  });

  it('checks a plan with the planner schema', () => {
    const parsed = parseProposalEdit('plan', 'role: planner\ncreate: []\nclose: []\nupdate: nope\n');
    expect(parsed).toEqual({
      ok: false,
      error: 'line 4: update: Invalid input: expected array, received string',
    });
  });
});
