import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildTestState,
  buildWorkItem,
} from '../../test/support/shared/builders/index.ts';
import { buildDashboardDeps, type TestDashboard } from '../../test/support/tui/build-dashboard-deps.ts';
import { renderAtSize } from '../../test/support/tui/render-at-size.tsx';
import { waitFor } from '../../test/support/tui/wait-for.ts';
import type { WorkItem } from '../domain/index.ts';
import { DashboardApp } from './dashboard-app.tsx';

/** 200 items with long (and some wide-character) titles, one of them running. */
function buildBusyState() {
  const items: WorkItem[] = Array.from({ length: 200 }, (_, index) =>
    buildWorkItem({
      id: String(index + 1),
      title: `${index % 3 === 0 ? '日本語のタイトル ' : ''}A rather long work item title that cannot fit a narrow list ${index + 1}`,
      status: index % 5 === 0 ? 'blocked' : 'ready',
      priority: index % 2 === 0 ? 'high' : null,
    }),
  );
  items.push(buildWorkItem({ id: '999', title: 'Running one', status: 'in-progress' }));
  return buildTestState({
    workItems: items,
    agentRuns: [buildImplementorRun({ sessionID: 'impl-999', workItemID: '999' })],
  });
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function renderSized(columns: number, rows: number) {
  const test: TestDashboard = buildDashboardDeps(buildBusyState());
  const view = renderAtSize(<DashboardApp deps={test.deps} />, columns, rows);
  cleanup = () => {
    view.unmount();
    test.close();
  };
  return { test, ...view };
}

const linesOf = (frame: string) => frame.replace(/\n$/, '').split('\n');
const widest = (frame: string) => Math.max(...linesOf(frame).map((line) => stringWidth(line)));

describe('DashboardApp at terminal sizes', () => {
  it('at 60×20 every line fits 60 columns and the frame fits 19 rows', async () => {
    const view = renderSized(60, 20);
    await waitFor(() => view.lastFrame().includes('BACKLOG'), 'the list');
    const frame = view.lastFrame();
    expect(widest(frame)).toBeLessThanOrEqual(60);
    expect(linesOf(frame).length).toBeLessThanOrEqual(19);
    expect(frame).toContain('NEEDS YOU');
    expect(frame).toContain('AGENTS (1)');
  });

  it('the help overlay also fits 60×20', async () => {
    const view = renderSized(60, 20);
    await waitFor(() => view.lastFrame().includes('BACKLOG'), 'the list');
    view.stdin.write('?');
    await waitFor(() => view.lastFrame().includes('Keys — Esc'), 'help');
    expect(widest(view.lastFrame())).toBeLessThanOrEqual(60);
    expect(linesOf(view.lastFrame()).length).toBeLessThanOrEqual(19);
  });

  it('at 250×60 it uses the room, and reflows after a resize', async () => {
    const view = renderSized(250, 60);
    await waitFor(() => view.lastFrame().includes('BACKLOG'), 'the list');
    const wide = view.lastFrame();
    expect(widest(wide)).toBeLessThanOrEqual(250);
    expect(widest(wide)).toBeGreaterThan(200);
    expect(linesOf(wide).length).toBeLessThanOrEqual(59);
    expect(linesOf(wide).length).toBeGreaterThan(50);

    view.stdout.resize(60, 20);
    await waitFor(() => widest(view.lastFrame()) <= 60, 'reflow to 60 columns');
    expect(linesOf(view.lastFrame()).length).toBeLessThanOrEqual(19);

    view.stdout.resize(120, 40);
    await waitFor(() => widest(view.lastFrame()) > 60, 'reflow to 120 columns');
    expect(widest(view.lastFrame())).toBeLessThanOrEqual(120);
    expect(linesOf(view.lastFrame()).length).toBeLessThanOrEqual(39);
  });

  it('a terminal smaller than 60×20 is drawn at 60×20 (the minimum)', async () => {
    const view = renderSized(40, 10);
    await waitFor(() => view.lastFrame().includes('BACKLOG'), 'the list');
    expect(linesOf(view.lastFrame()).length).toBeLessThanOrEqual(19);
    expect(widest(view.lastFrame())).toBeLessThanOrEqual(60);
  });
});
