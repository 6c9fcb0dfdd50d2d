import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { HeaderSummary } from '../view-model/build-header-summary.ts';
import { Header } from './header.tsx';

const SUMMARY: HeaderSummary = {
  planner: { kind: 'idle', unplannedSpecs: 0 },
  running: 0,
  queued: 0,
  maxAgents: 3,
  checksPending: 0,
  openItems: 2,
  waitingOnHuman: 0,
  pendingProposals: 0,
  parked: [],
  budgetPause: null,
  resourceWait: null,
};

function frame(
  quota?: { text: string; tone: 'normal' | 'low' | 'paused' } | null,
  summary: HeaderSummary = SUMMARY,
): string {
  const instance = render(
    <Header
      summary={summary}
      costUSD={0}
      previousCostUSD={null}
      repositoryLabel="widgets"
      quota={quota}
      now={0}
      width={160}
    />,
  );
  const text = instance.lastFrame() ?? '';
  instance.unmount();
  return text;
}

describe('Header', () => {
  it("shows the tracker's rate-limit budget when the provider has one, and nothing of it otherwise", () => {
    expect(frame({ text: 'GitHub 4987/5000 · resets 14:30 UTC', tone: 'normal' })).toContain(
      '│ GitHub 4987/5000 · resets 14:30 UTC │ 2 open · widgets',
    );
    expect(frame({ text: 'GitHub paused until 14:30 UTC', tone: 'paused' })).toContain(
      'GitHub paused until 14:30 UTC',
    );
    expect(frame(null)).not.toContain('GitHub');
    expect(frame()).toContain('│ 2 open · widgets');
  });

  it('says what queued runs wait for when the machine cannot hold another agent', () => {
    const waiting = { ...SUMMARY, running: 1, queued: 2, resourceWait: 'memory: 900 MiB available' };
    expect(frame(null, waiting)).toContain('agents 1/3 +2 queued (waiting for memory: 900 MiB available)');
    expect(frame(null)).not.toContain('waiting for');
  });

  it('says when a plan waits for approval, and nothing of it otherwise', () => {
    expect(frame(null, { ...SUMMARY, pendingProposals: 1 })).toContain(
      '1 plan to approve (flotilla proposals)',
    );
    expect(frame(null)).not.toContain('plan to approve');
  });
});
