/**
 * Reading `.flotilla/prompts/` (issue #28 §4, docs/prompt-templates.md) from a real directory: the roles' and
 * modes' templates are read; a malformed one, and a Markdown file no role or mode is named after (a template
 * that would silently never apply), are errors naming the file — what `flotilla run` and `doctor` report at start.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { loadPromptTemplates } from './load-prompt-templates.ts';

let root: { path: string; remove(): void };
const write = (name: string, text: string) => {
  mkdirSync(join(root.path, '.flotilla/prompts'), { recursive: true });
  writeFileSync(join(root.path, '.flotilla/prompts', name), text);
};

beforeEach(() => {
  root = createTempDir('flotilla-prompts-');
});
afterEach(() => root.remove());

describe('loadPromptTemplates', () => {
  it('no directory: no template, every role gets the built-in prompt', async () => {
    expect(await loadPromptTemplates(root.path)).toEqual({ ok: true, templates: {}, paths: [] });
  });

  it("reads each role's and mode's template; a README beside them is not one", async () => {
    write('implementor.md', 'Implement {taskTitle}\n');
    write('investigate.md', 'Investigate {taskTitle}\n');
    write('README.md', '# Our prompts\n');
    const loaded = await loadPromptTemplates(root.path);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    expect(Object.keys(loaded.templates).sort()).toEqual(['implementor', 'investigate']);
    expect(loaded.paths).toEqual(['.flotilla/prompts/implementor.md', '.flotilla/prompts/investigate.md']);
  });

  it('a malformed template is an error naming its file, line and column', async () => {
    write('reviewer.md', 'Review {taskTitle}\n\n{ taskId }\n');
    const loaded = await loadPromptTemplates(root.path);
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? [] : loaded.errors).toEqual([
      expect.stringMatching(/^\.flotilla\/prompts\/reviewer\.md:3:1: malformed template: \{ taskId \}/),
    ]);
  });

  it('a Markdown file no role or mode is named after is an error, with the name it was likely meant as', async () => {
    write('implementer.md', 'Implement {taskTitle}\n');
    write('notes.txt', 'not a template\n');
    const loaded = await loadPromptTemplates(root.path);
    expect(loaded.ok ? [] : loaded.errors).toEqual([
      ".flotilla/prompts/implementer.md: no role or mode is named 'implementer', so this template would never be used (did you mean implementor.md?); expected planner.md, implementor.md, reviewer.md, investigate.md, refine.md",
    ]);
  });
});
