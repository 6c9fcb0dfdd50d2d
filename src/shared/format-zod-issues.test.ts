import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssuePath, formatZodIssues } from './format-zod-issues.ts';

describe('formatIssuePath', () => {
  it('joins keys with dots and puts indexes in brackets', () => {
    expect(formatIssuePath(['scheduler', 'maxAttempts'])).toBe('scheduler.maxAttempts');
    expect(formatIssuePath(['create', 0, 'title'])).toBe('create[0].title');
    expect(formatIssuePath([0, 'name'])).toBe('[0].name');
  });

  it('names the document itself (root)', () => {
    expect(formatIssuePath([])).toBe('(root)');
  });
});

describe('formatZodIssues', () => {
  it('gives one `<path>: <message>` line per issue of a real parse', () => {
    const schema = z.object({ items: z.array(z.object({ title: z.string() })), count: z.number() });
    const result = schema.safeParse({ items: [{ title: 'ok' }, { title: 7 }], count: 'three' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(formatZodIssues(result.error.issues)).toEqual([
      'items[1].title: Invalid input: expected string, received number',
      'count: Invalid input: expected number, received string',
    ]);
  });

  it('reports a wrong document type at (root)', () => {
    const result = z.object({}).safeParse('text');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(formatZodIssues(result.error.issues)).toEqual([
      '(root): Invalid input: expected object, received string',
    ]);
  });
});
