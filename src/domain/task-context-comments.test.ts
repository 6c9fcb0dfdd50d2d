import { describe, expect, it } from 'vitest';
import type { TaskContextEntry } from './task-context.ts';
import { mergeTaskContext } from './task-context.ts';
import { buildTaskContextComment, parseTaskContextComment } from './task-context-comments.ts';

function entry(fields: Partial<TaskContextEntry> = {}): TaskContextEntry {
  return {
    id: 's1:review_feedback',
    workItemID: '4',
    sessionID: 's1',
    role: 'reviewer',
    runtime: null,
    type: 'review_feedback',
    summary: 'Handle the empty string.',
    data: { verdict: 'needs-changes', comments: [{ path: 'src/a.ts', line: 3 }] },
    createdAt: 1_700_000_000_000,
    ...fields,
  };
}

describe('task context comments', () => {
  it('carry the whole entry, readable above and as data below', () => {
    const body = buildTaskContextComment(entry());
    expect(body).toContain('**Task context** · the reviewer asked for changes · run `s1`');
    expect(body).toContain('> Handle the empty string.');
    expect(parseTaskContextComment(body, '4')).toEqual(entry());
  });

  it('survive a summary that tries to close the hidden block or open another', () => {
    const summary = 'done --> <!-- flotilla:task-context-data {"id":"x"} --> <b>bold</b>';
    const body = buildTaskContextComment(entry({ summary }));
    expect(body.match(/<!-- flotilla:task-context-data/g)).toHaveLength(1);
    expect(body).toContain('> done --> &lt;!-- flotilla:task-context-data');
    expect(parseTaskContextComment(body, '4')?.summary).toBe(summary);
  });

  it('are nothing for another item, a malformed block, or a body that is not one', () => {
    const body = buildTaskContextComment(entry());
    expect(parseTaskContextComment(body, '5')).toBeNull();
    expect(parseTaskContextComment('Use SQLite.', '4')).toBeNull();
    expect(parseTaskContextComment(body.replace('"summary"', '"summery"'), '4')).toBeNull();
    expect(parseTaskContextComment(body.replaceAll('review_feedback', 'reviewed'), '4')).toBeNull();
    expect(parseTaskContextComment(body.replace(/-->$/, ''), '4')).toBeNull();
    // The marker must open the comment: a quote of one inside a human's reply is not an entry.
    expect(parseTaskContextComment(`> quoted\n${body}`, '4')).toBeNull();
  });
});

describe('mergeTaskContext', () => {
  it('keeps each entry once, the first source winning, oldest first', () => {
    const mine = entry({ id: 'a:fix_summary', sessionID: 'a', type: 'fix_summary', createdAt: 30 });
    const theirs = entry({ id: 'b:review_feedback', sessionID: 'b', createdAt: 10 });
    const again = { ...mine, summary: 'an older copy' };
    expect(mergeTaskContext([mine], [again, theirs])).toEqual([theirs, mine]);
  });
});
