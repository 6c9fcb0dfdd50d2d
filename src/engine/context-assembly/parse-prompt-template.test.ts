import { describe, expect, it } from 'vitest';
import { parsePromptTemplate, renderPromptTemplate } from './parse-prompt-template.ts';

const PATH = '.flotilla/prompts/implementor.md';

describe('parsePromptTemplate', () => {
  it('replaces each known variable, keeps the text around it and reads {{ and }} as literal braces', () => {
    const parsed = parsePromptTemplate(
      '{taskContext}\n# #{taskId} {taskTitle}\nReturn {{ "ok": true }}.\n{ciFailure}',
      'implementor',
      PATH,
    );
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const rendered = renderPromptTemplate(parsed.template, {
      taskContext: '## Task context',
      taskId: '7',
      taskTitle: 'Greet',
      ciFailure: '',
    });
    // An empty section leaves its line empty; the prompt ends with one newline.
    expect(rendered).toBe('## Task context\n# #7 Greet\nReturn { "ok": true }.\n');
  });

  it('names the file, line and column of an unknown variable, with the closest known one', () => {
    const parsed = parsePromptTemplate('Title: {taskTitle}\n\n  {taskDescripton}\n', 'implementor', PATH);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]).toMatch(
      /^\.flotilla\/prompts\/implementor\.md:3:3: unknown variable \{taskDescripton\} \(did you mean \{taskDescription\}\?\) — the implementor template knows \{taskContext\}, /,
    );
  });

  it("knows only the role's own variables: {ciFailure} is not the reviewer's, {specDiff} only the planner's", () => {
    const reviewer = parsePromptTemplate('{ciFailure}', 'reviewer', 'reviewer.md');
    expect(reviewer.ok).toBe(false);
    expect(parsePromptTemplate('{specDiff}\n{specs}\n{workItems}', 'planner', 'planner.md').ok).toBe(true);
    expect(parsePromptTemplate('{taskId}', 'planner', 'planner.md').ok).toBe(false);
  });

  it.each([
    ['{ taskId }', '1:1', '{ taskId }'],
    ['ok\nan { unclosed brace', '2:4', '{ is not'],
    ['x {task-id}', '1:3', '{task-id}'],
    ['{taskId\n}', '1:1', '{ is not'],
  ])('reports a malformed %j at %s', (text, position, shown) => {
    const parsed = parsePromptTemplate(text, 'implementor', PATH);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors[0]).toContain(`${PATH}:${position}: malformed template: ${shown}`);
    expect(parsed.errors[0]).toContain('or {{ for a literal {');
  });

  it('reports every problem at once', () => {
    const parsed = parsePromptTemplate('{a}\n{b}\n{', 'reviewer', 'r.md');
    expect(parsed.ok ? [] : parsed.errors.map((error) => error.split(': ')[0])).toEqual([
      'r.md:1:1',
      'r.md:2:1',
      'r.md:3:1',
    ]);
  });
});
