import { describe, expect, it } from 'vitest';
import type { Memory } from '../../domain/index.ts';
import {
  buildMemoriesSection,
  FIRST_MEMORY_READ,
  memoriesWorthReading,
  readMemoriesSection,
} from './build-memories-section.ts';

const memory = (id: number, topic: string, text: string): Memory => ({
  id,
  topic,
  text,
  source: 'implementor',
  sessionID: `s${id}`,
  workItemID: '7',
  runtime: 'claude',
  createdAt: Date.UTC(2026, 10, id),
  updatedAt: Date.UTC(2026, 10, id),
});

describe('buildMemoriesSection', () => {
  it('says there are none when the repository has no memories', () => {
    expect(buildMemoriesSection([])).toMatch(/^## Memories\n\n.*\n\nNo memories yet\.$/);
  });

  it('lists the memories in the order given (newest first), with who stored them, on which item, when', () => {
    const section = buildMemoriesSection([
      memory(3, 'tests', 'Run npm test.'),
      memory(1, 'build', 'Use make.'),
    ]);
    expect(section).toContain('- **tests** (implementor on #7, 2026-11-03): Run npm test.');
    expect(section.indexOf('**tests**')).toBeLessThan(section.indexOf('**build**'));
    expect(section).not.toContain('left out');
  });

  it('keeps within the cap and says how many older memories were left out', () => {
    const memories = Array.from({ length: 50 }, (_, index) =>
      memory(50 - index, `t${index}`, 'x'.repeat(300)),
    );
    const section = buildMemoriesSection(memories, 2000);
    expect(section.length).toBeLessThanOrEqual(2000);
    const shown = (section.match(/^- \*\*/gm) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(section).toContain(`(${50 - shown} older memories left out for room`);
    expect(section).toContain('**t0**');
  });

  it('keeps a multi-line memory inside its list item', () => {
    const section = buildMemoriesSection([memory(1, 'a*b', 'one\ntwo')]);
    expect(section).toContain('- **a b** (implementor on #7, 2026-11-01): one\n  two');
  });
});

describe('buildMemoriesSection with only the newest read', () => {
  it('counts the memories it was not given among those left out', () => {
    const section = buildMemoriesSection([memory(9, 'newest', 'n')], 8000, 40);
    expect(section).toContain('**newest**');
    expect(section).toContain('(39 older memories left out for room');
  });
});

describe('readMemoriesSection', () => {
  /** A store of `count` memories of `chars` characters, newest first, that records each read's limit. */
  function store(count: number, chars: number) {
    const all = Array.from({ length: count }, (_, index) =>
      memory(count - index, `t${index}`, 'x'.repeat(chars)),
    );
    const reads: number[] = [];
    return {
      reads,
      all,
      source: {
        list: (limit: number) => {
          reads.push(limit);
          return all.slice(0, limit);
        },
        count: () => all.length,
      },
    };
  }

  it('reads only the first memories when they fill the section, and builds what reading them all would', () => {
    const { source, reads, all } = store(1000, 300);
    const section = readMemoriesSection(source, 8000);
    expect(reads).toEqual([FIRST_MEMORY_READ]);
    expect(section).toBe(buildMemoriesSection(all, 8000));
  });

  it('reads more while every memory read fits, and builds what reading them all would', () => {
    // About 50 characters each: the first 48 fit, so it reads 192, which fill the section.
    const { source, reads, all } = store(1000, 1);
    const section = readMemoriesSection(source, 8000);
    expect(reads).toEqual([FIRST_MEMORY_READ, FIRST_MEMORY_READ * 4]);
    expect(FIRST_MEMORY_READ * 4).toBeLessThan(memoriesWorthReading(8000));
    expect(section).toBe(buildMemoriesSection(all, 8000));
  });

  it('stops when the store has no more, and says when there are none', () => {
    const few = store(10, 1);
    expect(readMemoriesSection(few.source, 8000)).toBe(buildMemoriesSection(few.all, 8000));
    expect(few.reads).toEqual([FIRST_MEMORY_READ]);
    const none = store(0, 1);
    expect(readMemoriesSection(none.source)).toMatch(/No memories yet\.$/);
    expect(none.reads).toEqual([]);
  });
});
