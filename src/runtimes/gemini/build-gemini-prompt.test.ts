import { describe, expect, it } from 'vitest';
import { buildGeminiPrompt, parseFinalMessage } from './build-gemini-prompt.ts';

describe('buildGeminiPrompt', () => {
  it('keeps the prompt first, then the role, the context files and the output schema', () => {
    const prompt = buildGeminiPrompt({
      prompt: '## Work Item #7\n\nDo it.\n',
      role: 'implementor',
      contextFiles: [
        { path: 'AGENTS.md', text: 'Use tabs.' },
        { path: 'empty.md', text: ' ' },
      ],
    });
    expect(prompt.startsWith('## Work Item #7\n\nDo it.\n\n## How you work')).toBe(true);
    expect(prompt).toContain('### AGENTS.md\n\nUse tabs.');
    expect(prompt).not.toContain('empty.md');
    expect(prompt).toContain('"outcome"');
    expect(prompt).toContain('"questions"');
  });
});

describe('parseFinalMessage', () => {
  it('reads the JSON, whole or in one fenced block; anything else is null', () => {
    expect(parseFinalMessage(' {"a":1}\n')).toEqual({ a: 1 });
    expect(parseFinalMessage('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseFinalMessage('Done! {"a":1}')).toBeNull();
    expect(parseFinalMessage('')).toBeNull();
  });
});
