import { describe, expect, it } from 'vitest';
import { buildPlannerRun, buildSpec, buildTestState } from '../../../test/support/shared/builders/index.ts';
import type { StreamBuffer } from '../streams/create-stream-buffers.ts';
import type { DetailContent } from './build-detail-content.ts';
import { buildPlannerContent } from './build-planner-content.ts';

const lines = (content: DetailContent) =>
  Array.from({ length: content.length }, (_, index) => content.at(index).text);
const noStreams = () => null;

describe('buildPlannerContent', () => {
  it('with no planner run yet: the spec counts and a note', () => {
    const state = buildTestState({
      specs: [
        buildSpec({ filePath: 'a.md', blobSHA: 'a1' }),
        buildSpec({ filePath: 'b.md', frontmatterStatus: 'draft' }),
      ],
      lastPlannedSHAs: { 'a.md': 'a1' },
    });
    const content = buildPlannerContent(state, noStreams, 0);
    expect(lines(content)).toEqual([
      'Planner — p returns to the selected item',
      '2 spec(s), 1 approved, 1 planned at their current version',
      'no planner run yet',
    ]);
    expect(content.live).toBe(false);
  });

  it('running: the newest run with its stream, live until the stream ends', () => {
    const state = buildTestState({
      agentRuns: [
        buildPlannerRun({ sessionID: 'older-planner', status: 'completed', requestedAt: 0 }),
        buildPlannerRun({ sessionID: 'planner-123456789', requestedAt: 1_000, specPaths: ['a.md', 'b.md'] }),
      ],
    });
    const stream: StreamBuffer = {
      sessionID: 'planner-123456789',
      lines: ['thinking', 'planning'],
      dropped: 0,
      ended: false,
    };
    const content = buildPlannerContent(state, (id) => (id === stream.sessionID ? stream : null), 6_000);
    const text = lines(content);
    expect(text[2]).toBe('running · a.md, b.md · 5s · session planner- · x cancels');
    expect(text).toContain('transcript /logs/planner-123456789.jsonl (l opens it)');
    expect(text.slice(-2)).toEqual(['thinking', 'planning']);
    expect(content.live).toBe(true);
    expect(buildPlannerContent(state, () => ({ ...stream, ended: true }), 6_000).live).toBe(false);
  });

  it('running without output: waits for the first words', () => {
    const state = buildTestState({ agentRuns: [buildPlannerRun({ sessionID: 'p', status: 'requested' })] });
    const content = buildPlannerContent(state, noStreams, 1_000);
    expect(lines(content).at(-1)).toBe('waiting for the planner’s first words…');
    expect(content.live).toBe(false);
  });

  it('failed: the status, its error in red and no output kept', () => {
    const state = buildTestState({
      agentRuns: [buildPlannerRun({ sessionID: 'p', status: 'failed', error: 'bad output\nline 2' })],
    });
    const content = buildPlannerContent(state, noStreams, 99_000);
    const text = lines(content);
    expect(text[2]).toBe('failed · docs/specs/alpha.md · 1s · session p');
    expect(content.at(2).color).toBe('red');
    expect(text.slice(3, 5)).toEqual(['bad output', 'line 2']);
    expect(text.at(-1)).toBe('(no output kept)');
  });
});
