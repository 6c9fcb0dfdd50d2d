import { describe, expect, it } from 'vitest';
import { buildTestState, buildWorkItem } from '../../../test/support/shared/builders/index.ts';
import { findRow } from '../../../test/support/tui/find-row.ts';
import type { AgentNoteRecord } from '../../domain/index.ts';
import type { ItemAgentNotes } from './build-agent-note-lines.ts';
import { buildDetailContent, type Fetched } from './build-detail-content.ts';

const state = buildTestState({ workItems: [buildWorkItem({ id: '1', status: 'pending' })] });

function detailText(notes: Fetched<ItemAgentNotes> | null): string[] {
  const content = buildDetailContent({
    row: findRow(state, '1'),
    state,
    body: { status: 'ok', value: 'The body' },
    files: null,
    reviews: null,
    checksLog: null,
    notes,
    stream: null,
    now: 0,
  });
  return Array.from({ length: content.length }, (_, index) => content.at(index).text);
}

function note(kind: AgentNoteRecord['kind'], text: string, why: string | null, at: number): AgentNoteRecord {
  return {
    id: at,
    kind,
    workItemID: '1',
    sessionID: `s${at}`,
    role: kind === 'question' ? 'reviewer' : 'implementor',
    runtime: kind === 'question' ? null : 'codex',
    text,
    why,
    createdAt: at,
  };
}

describe("the item's decisions and logged questions in the detail pane", () => {
  it('lists decisions with their reasons and questions, oldest first, with who recorded them and when', () => {
    const text = detailText({
      status: 'ok',
      value: {
        decisions: [
          note('decision', 'Use SQLite', 'one file\nno server', Date.UTC(2026, 0, 2, 3, 4)),
          note('decision', 'Keep the old API', null, Date.UTC(2026, 0, 2, 3, 5)),
        ],
        questions: [note('question', 'Should CSV quote every field?', null, Date.UTC(2026, 0, 2, 4, 0))],
      },
    });
    const start = text.indexOf('decisions agents recorded (2, oldest first):');
    expect(start).toBeGreaterThan(0);
    expect(text.slice(start + 1, start + 11)).toEqual([
      '  [implementor · codex] 2026-01-02 03:04',
      '    Use SQLite',
      '    why: one file',
      '         no server',
      '  [implementor · codex] 2026-01-02 03:05',
      '    Keep the old API',
      'questions agents logged (1, oldest first):',
      '  [reviewer] 2026-01-02 04:00',
      '    Should CSV quote every field?',
      '',
    ]);
    // The body still comes last.
    expect(text.at(-1)).toBe('The body');
  });

  it('shows nothing when there are none, and says when they are loading or cannot be read', () => {
    const none = detailText({ status: 'ok', value: { decisions: [], questions: [] } });
    expect(none.some((line) => line.includes('agents recorded') || line.includes('agents logged'))).toBe(
      false,
    );
    expect(detailText(null).some((line) => line.includes('decisions'))).toBe(false);
    expect(detailText({ status: 'loading' })).toContain("loading agents' decisions and questions…");
    expect(detailText({ status: 'error', message: 'database is locked' })).toContain(
      "cannot load agents' decisions and questions: database is locked",
    );
  });
});
