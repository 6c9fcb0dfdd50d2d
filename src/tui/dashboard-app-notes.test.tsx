import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildTestState,
  buildWorkItem,
} from '../../test/support/shared/builders/index.ts';
import { buildDashboardDeps, type TestDashboard } from '../../test/support/tui/build-dashboard-deps.ts';
import { waitFor } from '../../test/support/tui/wait-for.ts';
import type { AgentNoteRecord } from '../domain/index.ts';
import { DashboardApp } from './dashboard-app.tsx';

let active: { test: TestDashboard; unmount(): void } | null = null;
afterEach(() => {
  active?.unmount();
  active?.test.close();
  active = null;
});

function note(kind: AgentNoteRecord['kind'], text: string, why: string | null): AgentNoteRecord {
  return {
    id: 1,
    kind,
    workItemID: '1',
    sessionID: 'impl-1',
    role: 'implementor',
    runtime: 'codex',
    text,
    why,
    createdAt: 0,
  };
}

describe("DashboardApp: an item's decisions and logged questions (issue #28 §2)", () => {
  it('shows them in the detail pane, and reads them again once the running agent finishes', async () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: '1', title: 'Export CSV', status: 'in-progress' })],
      agentRuns: [buildImplementorRun({ sessionID: 'impl-1', workItemID: '1' })],
    });
    const test = buildDashboardDeps(state);
    test.notes['1'] = {
      decisions: [note('decision', 'Quote every field', 'Excel needs it')],
      questions: [],
    };
    const instance = render(<DashboardApp deps={test.deps} />);
    active = { test, unmount: instance.unmount };
    const frame = () => instance.lastFrame() ?? '';
    const until = async (check: (value: string) => boolean, what: string) => {
      try {
        await waitFor(() => check(frame()), what);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- last frame ---\n${frame()}`);
      }
    };
    await until((value) => value.includes('implementor running'), 'the live run');
    // While the agent runs the pane shows its live output; the notes follow once it is done.
    expect(frame()).not.toContain('decisions agents recorded');

    // The agent recorded a question before it finished: the finished run's pane reads the notes again.
    test.notes['1'] = {
      decisions: [note('decision', 'Quote every field', 'Excel needs it')],
      questions: [note('question', 'Should empty cells be null?', null)],
    };
    test.engine.setState((current) => ({
      ...current,
      agentRuns: {
        'impl-1': buildImplementorRun({ sessionID: 'impl-1', workItemID: '1', status: 'completed' }),
      },
    }));
    await until((value) => value.includes('questions agents logged (1'), 'the logged question');
    const text = frame();
    expect(text).toContain('decisions agents recorded (1');
    expect(text).toContain('Quote every field');
    expect(text).toContain('why: Excel needs it');
    expect(text).toContain('Should empty cells be null?');
    expect(test.noteLoads.filter((id) => id === '1').length).toBeGreaterThanOrEqual(2);
  });
});
