import { describe, expect, it } from 'vitest';
import { createSessionInput } from './create-session-input.ts';

const texts = async (input: ReturnType<typeof createSessionInput>) => {
  const seen: unknown[] = [];
  for await (const message of input.messages) seen.push(message.message.content);
  return seen;
};

describe('createSessionInput', () => {
  it('yields the prompt, then each pushed message, until it ends; nothing is pushed after the end', async () => {
    const input = createSessionInput('Work on #7.');
    const read = texts(input);
    expect(input.push('Question from another agent')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.push('A second one')).toBe(true);
    input.end();
    expect(input.push('too late')).toBe(false);
    expect(await read).toEqual(['Work on #7.', 'Question from another agent', 'A second one']);
  });

  it('gives every message as a user message of the main session', async () => {
    const input = createSessionInput('p');
    input.end();
    for await (const message of input.messages)
      expect(message).toEqual({
        type: 'user',
        message: { role: 'user', content: 'p' },
        parent_tool_use_id: null,
      });
  });
});
