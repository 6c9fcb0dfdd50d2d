import { describe, expect, it } from 'vitest';
import { WORK_ITEM_STATUSES } from './work-item.ts';
import { parseWorkItemLabels } from './work-item-labels.ts';

describe('parseWorkItemLabels', () => {
  it('reads every category of a fully labelled task', () => {
    expect(
      parseWorkItemLabels([
        'status:ready',
        'task:implement',
        'priority:high',
        'complexity:low',
        'frontend',
        'good first issue',
      ]),
    ).toEqual({
      status: 'ready',
      kind: 'task',
      priority: 'high',
      complexity: 'low',
      runtime: null,
      mode: null,
      complexityLabel: null,
      other: ['frontend', 'good first issue'],
    });
  });

  it('gives null status, priority and complexity and kind task when nothing is labelled', () => {
    expect(parseWorkItemLabels([])).toEqual({
      status: null,
      kind: 'task',
      priority: null,
      complexity: null,
      runtime: null,
      mode: null,
      complexityLabel: null,
      other: [],
    });
  });

  it('reads task:investigate and task:refine as tasks run in that mode (issue #29)', () => {
    expect(parseWorkItemLabels(['task:investigate'])).toMatchObject({ kind: 'task', mode: 'investigate' });
    expect(parseWorkItemLabels(['task:refine', 'complexity:simple'])).toMatchObject({
      kind: 'task',
      mode: 'refine',
      complexityLabel: 'simple',
    });
    expect(parseWorkItemLabels(['task:implement', 'complexity:low'])).toMatchObject({
      mode: null,
      complexity: 'low',
      complexityLabel: null,
    });
  });

  it.each(WORK_ITEM_STATUSES)('reads status:%s', (status) => {
    expect(parseWorkItemLabels([`status:${status}`]).status).toBe(status);
  });

  it('drops unknown values under a known prefix (an unknown complexity is kept for model routing only)', () => {
    expect(parseWorkItemLabels(['status:wip', 'priority:urgent', 'complexity:huge', 'task:chore'])).toEqual({
      status: null,
      kind: 'task',
      priority: null,
      complexity: null,
      runtime: null,
      mode: null,
      complexityLabel: 'huge',
      other: [],
    });
  });

  it('picks the alphabetically first of several valid values, whatever the label order', () => {
    expect(parseWorkItemLabels(['status:pending', 'status:in-progress']).status).toBe('in-progress');
    expect(parseWorkItemLabels(['status:in-progress', 'status:pending']).status).toBe('in-progress');
    expect(parseWorkItemLabels(['priority:low', 'priority:high', 'priority:medium']).priority).toBe('high');
    expect(parseWorkItemLabels(['complexity:trivial', 'complexity:medium']).complexity).toBe('medium');
  });

  it('reads task:refinement as a refinement item, which never has a complexity', () => {
    expect(parseWorkItemLabels(['task:refinement', 'complexity:high', 'priority:medium'])).toEqual({
      status: null,
      kind: 'refinement',
      priority: 'medium',
      complexity: null,
      runtime: null,
      mode: null,
      complexityLabel: null,
      other: [],
    });
  });

  it('treats an item labelled both implement and refinement as a task (implement sorts first)', () => {
    expect(parseWorkItemLabels(['task:refinement', 'task:implement']).kind).toBe('task');
  });

  it('keeps other labels in their order, including ones that merely resemble reserved prefixes', () => {
    expect(parseWorkItemLabels(['zeta', 'status', 'Status:ready', 'alpha', 'tasks:x']).other).toEqual([
      'zeta',
      'status',
      'Status:ready',
      'alpha',
      'tasks:x',
    ]);
  });

  it('reads the runtime a runtime:<name> label names, keeps the label, and picks the first of several', () => {
    const parsed = parseWorkItemLabels(['area:api', 'runtime:codex', 'runtime:cli:aider', 'runtime:  ']);
    expect(parsed.runtime).toBe('cli:aider');
    expect(parsed.other).toEqual(['area:api', 'runtime:codex', 'runtime:cli:aider', 'runtime:  ']);
    expect(parseWorkItemLabels(['runtime:']).runtime).toBeNull();
  });
});
