import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { extractOutputText } from './extract-output-text.ts';

// Only the fields the function reads; the casts stand in for full SDK messages.
const assistant = (content: unknown[]) =>
  ({ type: 'assistant', message: { content } }) as unknown as SDKMessage;

describe('extractOutputText', () => {
  it('yields the text blocks of assistant messages only', () => {
    const message = assistant([
      { type: 'text', text: 'Reading the spec.' },
      { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'x' } },
      { type: 'text', text: '' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(extractOutputText(message)).toEqual(['Reading the spec.', 'Done.']);
  });

  it('surfaces nothing from system, user (tool results) or result messages', () => {
    for (const type of ['system', 'user', 'result']) {
      const message = {
        type,
        message: { content: [{ type: 'text', text: 'hidden' }] },
      } as unknown as SDKMessage;
      expect(extractOutputText(message)).toEqual([]);
    }
  });
});
