import { describe, expect, it } from 'vitest';
import { formatConversation } from './conversations-command.ts';

const base = {
  id: 'c-1',
  from: { sessionID: 'sa', role: 'implementor', workItemID: '7' },
  target: '8',
  to: { sessionID: 'sb', role: 'implementor', workItemID: '8' },
  question: 'Which port?',
  status: 'answered',
  answer: 'Port 8080.',
  timeoutSeconds: 60,
  createdAt: Date.UTC(2026, 10, 27, 10),
  answeredAt: Date.UTC(2026, 10, 27, 10, 1),
} as const;

describe('formatConversation', () => {
  it('says who asked whom, the question and the answer', () => {
    expect(formatConversation(base)).toBe(
      'c-1 2026-11-27T10:00:00.000Z implementor of #7 → implementor of #8 [answered]\n' +
        '  Q: Which port?\n  A: Port 8080.',
    );
  });

  it('names the target as asked when nobody ran, and marks a non-answer', () => {
    const lines = formatConversation({
      ...base,
      target: 'planner',
      to: null,
      status: 'not-running',
      answer: 'no agent planner is running now',
    }).split('\n');
    expect(lines[0]).toContain("→ 'planner' [not-running]");
    expect(lines[2]).toBe('  -: no agent planner is running now');
  });
});
