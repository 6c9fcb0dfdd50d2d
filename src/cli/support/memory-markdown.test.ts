import { describe, expect, it } from 'vitest';
import type { Memory } from '../../domain/index.ts';
import { formatMemoriesMarkdown, parseMemoriesMarkdown } from './memory-markdown.ts';

const memory = (id: number, topic: string, text: string): Memory => ({
  id,
  topic,
  text,
  source: 'implementor',
  sessionID: 's',
  workItemID: '4',
  runtime: 'codex',
  createdAt: 0,
  updatedAt: Date.UTC(2026, 10, 27),
});

describe('memories as Markdown', () => {
  it('exports sorted by topic and imports back the same topics and texts', () => {
    const markdown = formatMemoriesMarkdown([
      memory(1, 'tests', 'Run npm test.\n\nTwice.'),
      memory(2, 'build', 'make'),
    ]);
    expect(markdown).toContain(
      '## build\n\n<!-- source: implementor; work item: 4; updated: 2026-11-27T00:00:00.000Z -->\n\nmake\n',
    );
    expect(markdown.indexOf('## build')).toBeLessThan(markdown.indexOf('## tests'));
    expect(parseMemoriesMarkdown(markdown, 'm.md')).toEqual({
      ok: true,
      memories: [
        { topic: 'build', text: 'make' },
        { topic: 'tests', text: 'Run npm test.\n\nTwice.' },
      ],
    });
  });

  it('names file and line for text before a heading, an empty memory, a repeated topic, an over-long one', () => {
    const parsed = parseMemoriesMarkdown(
      `stray\n## a\n\n## b\nfine\n## B\nagain\n## c\n${'x'.repeat(2001)}\n`,
      'team.md',
    );
    expect(parsed).toEqual({
      ok: false,
      errors: [
        "team.md:1: expected a '## <topic>' heading before any text",
        "team.md:2: memory 'a' has no text",
        "team.md:6: topic 'B' appears twice",
        "team.md:8: memory 'c' is over 2000 characters",
      ],
    });
  });
});
