import type { PlannerRun } from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/index.ts';
import type { StreamBuffer } from '../streams/create-stream-buffers.ts';
import type { DetailContent, DetailLine } from './build-detail-content.ts';
import { formatDuration } from './format-duration.ts';

/** The planner view (`p`): its latest run, the specs it works on, and its live output or last result. */
export function buildPlannerContent(
  state: EngineState,
  findStream: (sessionID: string) => StreamBuffer | null,
  now: number,
): DetailContent {
  let latest: PlannerRun | null = null;
  for (const run of Object.values(state.agentRuns)) {
    if (run.role === 'planner' && (latest === null || run.requestedAt >= latest.requestedAt)) latest = run;
  }
  const head: DetailLine[] = [{ text: 'Planner — p returns to the selected item', bold: true }];
  const specs = Object.values(state.specs);
  const approved = specs.filter((spec) => spec.frontmatterStatus === 'approved');
  head.push({
    text: `${specs.length} spec(s), ${approved.length} approved, ${approved.filter((spec) => state.lastPlannedSHAs[spec.filePath] === spec.blobSHA).length} planned at their current version`,
    dim: true,
  });
  if (latest === null) {
    head.push({ text: 'no planner run yet', dim: true });
    return { length: head.length, at: (index) => head[index] ?? { text: '' }, live: false };
  }
  const active = latest.status === 'requested' || latest.status === 'running';
  head.push({
    text: `${active ? 'running' : latest.status} · ${latest.specPaths.join(', ')} · ${formatDuration((latest.endedAt ?? now) - latest.requestedAt)} · session ${latest.sessionID.slice(0, 8)}${active ? ' · x cancels' : ''}`,
    color: active ? 'cyan' : latest.status === 'completed' ? 'green' : 'red',
  });
  if (latest.error) for (const text of latest.error.split('\n')) head.push({ text, color: 'red' });
  if (latest.logFilePath) head.push({ text: `transcript ${latest.logFilePath} (l opens it)`, dim: true });
  head.push({ text: '', rule: true, dim: true });
  const stream = findStream(latest.sessionID);
  const lines = stream?.lines ?? [];
  if (lines.length === 0)
    head.push({ text: active ? 'waiting for the planner’s first words…' : '(no output kept)', dim: true });
  return {
    length: head.length + lines.length,
    at: (index) => head[index] ?? { text: lines[index - head.length] ?? '' },
    live: active && stream !== null && !stream.ended,
  };
}
