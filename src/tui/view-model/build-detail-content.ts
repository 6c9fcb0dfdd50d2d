import { isAbsolute } from 'node:path';
import {
  type AgentRun,
  describeReviewVerdict,
  describeTrackerQueueEntry,
  listOpenBlockers,
  type ReviewHistory,
  type Revision,
  type RevisionFile,
  revisionName,
} from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/index.ts';
import { buildMergeQueue, failureKey } from '../../engine/state-store/index.ts';
import type { StreamBuffer } from '../streams/create-stream-buffers.ts';
import { buildAgentNoteLines, type ItemAgentNotes } from './build-agent-note-lines.ts';
import { buildTaskContextLines } from './build-task-context-lines.ts';
import type { WorkItemRow } from './build-work-item-sections.ts';
import { DISPLAY_STATUS_STYLES } from './display-status.ts';
import { formatDuration } from './format-duration.ts';

export type LineColor = 'green' | 'red' | 'yellow' | 'magenta' | 'cyan' | 'blue' | 'gray' | 'white';

export interface DetailLine {
  text: string;
  color?: LineColor;
  bold?: boolean;
  dim?: boolean;
  /** A separator drawn across the pane's width. */
  rule?: boolean;
}

/** Lines by index without copying a 10,000-line stream into a new array on every render. */
export interface DetailContent {
  length: number;
  at(index: number): DetailLine;
  /** Whether the content ends with a live stream (the pane then follows its end unless scrolled). */
  live: boolean;
}

export type Fetched<T> =
  | { status: 'loading' }
  | { status: 'ok'; value: T }
  | { status: 'error'; message: string };

export interface DetailInputs {
  row: WorkItemRow;
  state: EngineState;
  body: Fetched<string>;
  files: Fetched<RevisionFile[]> | null;
  reviews: Fetched<ReviewHistory> | null;
  /** The last lines of a failed checks run's log. */
  checksLog: Fetched<string[]> | null;
  /** The item's recorded decisions and logged questions (issue #28 §2); null: not available here. */
  notes: Fetched<ItemAgentNotes> | null;
  stream: StreamBuffer | null;
  now: number;
}

const RULE: DetailLine = { text: '', rule: true, dim: true };

/**
 * Everything the detail pane shows for one item, shaped by its state: a running agent's live output; a
 * queued run's wait; a failure with its reason, session, transcript and the key that retries; the revision
 * with its checks (and the failing log's tail) and files; the review and its comments; the item's body.
 */
/**
 * An approved item's place in the merge queue (issue #30 §5): its position, and for the head what it
 * waits for; for another entry what holds it (a blocker, red checks) or the head it waits behind.
 */
export function describeMergeQueuePlace(state: EngineState, workItemID: string): DetailLine | null {
  const view = buildMergeQueue(state);
  const entry = view.entries.find((candidate) => candidate.workItemID === workItemID);
  if (entry === undefined) return null;
  const place = `merge queue ${entry.position}/${view.entries.length}`;
  if (view.head?.workItemID === workItemID) {
    return {
      text: `${place} · head: ${view.headBlockedBy ?? 'merges next (rebased first if the default branch moved)'}`,
      color: 'cyan',
    };
  }
  const held = view.held.find((candidate) => candidate.workItemID === workItemID);
  if (held !== undefined) return { text: `${place} · held: ${held.reason}`, color: 'yellow' };
  if (entry.trackerQueue !== null) {
    return { text: `${place} · ${describeTrackerQueueEntry(entry.trackerQueue)}`, color: 'cyan' };
  }
  return {
    text: `${place} · behind #${view.head?.workItemID ?? '?'}${view.headBlockedBy === null ? '' : ` (${view.headBlockedBy})`}`,
    dim: true,
  };
}

export function buildDetailContent(inputs: DetailInputs): DetailContent {
  const { row, state } = inputs;
  const { item, latestRun } = row;
  const head: DetailLine[] = [];
  const runIsActive =
    latestRun !== null && (latestRun.status === 'requested' || latestRun.status === 'running');
  pushSummary(head, row, state, runIsActive);
  if (runIsActive && latestRun !== null) return buildLiveContent(head, latestRun, inputs);
  if (row.queued !== null) pushQueued(head, row.queued, inputs.now);
  if (latestRun !== null) pushFailure(head, row, latestRun, state);
  const revision = item.linkedRevision === null ? undefined : state.revisions[item.linkedRevision];
  if (revision !== undefined) pushRevision(head, revision, inputs);
  const context = buildTaskContextLines(state.taskContext[item.id]);
  if (context.length > 0) head.push(RULE, ...context);
  pushNotes(head, inputs.notes);
  head.push(RULE);
  pushFetched(head, inputs.body, 'description', (body) =>
    body.trim() === ''
      ? [{ text: '(no description)', dim: true }]
      : body.split('\n').map((text) => ({ text })),
  );
  return fromLines(head, false);
}

/** Title, facts, open blockers, what happens next without a human, and the merge queue place. */
function pushSummary(head: DetailLine[], row: WorkItemRow, state: EngineState, runIsActive: boolean): void {
  const { item, displayStatus } = row;
  const style = DISPLAY_STATUS_STYLES[displayStatus];
  head.push({ text: `#${item.id} ${item.title}`, bold: true });
  const facts = [
    `${style.icon} ${style.label.toLowerCase()}`,
    `status ${item.status}`,
    item.priority ? `priority ${item.priority}` : null,
    item.complexity ? `complexity ${item.complexity}` : null,
    item.kind === 'refinement' ? 'refinement question' : null,
    item.kind === 'questions' ? "planner's questions" : null,
  ].filter((fact): fact is string => fact !== null);
  head.push({ text: facts.join(' · '), color: style.color });
  const waitingFor = listOpenBlockers(item, (id) => state.workItems[id]?.status);
  if (waitingFor.length > 0) {
    const blockers = waitingFor.map(({ id, status }) => `#${id} (${status})`);
    head.push({ text: `waiting for ${blockers.join(', ')}`, dim: true });
  }
  // What happens next without a human (the engine dispatches pending tasks; blocked ones wait for you).
  if (item.kind === 'task' && !runIsActive && row.queued === null) {
    if (displayStatus === 'blocked') {
      head.push({
        text: 'parked: nothing dispatches it until you do · d dispatches · u moves it to pending',
        color: 'yellow',
      });
    } else if (displayStatus === 'pending') {
      head.push({ text: 'dispatched automatically once its blockers are approved or closed', dim: true });
    }
  }
  const queueLine = describeMergeQueuePlace(state, item.id);
  if (queueLine !== null) head.push(queueLine);
}

/** A running agent: who, for how long, its progress, then its live output below the summary. */
function buildLiveContent(head: DetailLine[], run: AgentRun, inputs: DetailInputs): DetailContent {
  head.push(RULE);
  const started = run.status === 'running' ? 'running' : 'starting';
  head.push({
    text: `${run.role} ${started} for ${formatDuration(inputs.now - run.requestedAt)} · session ${run.sessionID.slice(0, 8)} · x cancel`,
    color: 'cyan',
  });
  // The agent's live one-line progress (`update_summary`), when it gave one.
  if (run.summary !== undefined) head.push({ text: `now: ${run.summary}` });
  // A question between agents it waits on or is asked in (issue #28 §3).
  if (run.conversation !== undefined) head.push({ text: `talk: ${run.conversation.line}` });
  if (run.logFilePath) head.push({ text: `transcript ${run.logFilePath}`, dim: true });
  head.push(RULE);
  const stream = inputs.stream;
  if (stream === null || stream.lines.length === 0) {
    head.push({ text: 'waiting for the agent’s first words…', dim: true });
    return fromLines(head, true);
  }
  if (stream.dropped > 0)
    head.push({ text: `… ${stream.dropped} earlier lines (full text in the transcript)`, dim: true });
  const streamLines = stream.lines;
  return {
    length: head.length + streamLines.length,
    at: (index) => head[index] ?? { text: streamLines[index - head.length] ?? '' },
    live: !stream.ended,
  };
}

function pushQueued(head: DetailLine[], queued: NonNullable<WorkItemRow['queued']>, now: number): void {
  head.push(RULE);
  const role = queued.command.type === 'requestReviewerRun' ? 'reviewer' : 'implementor';
  head.push({
    text:
      queued.reason === 'backoff' && queued.notBefore !== null
        ? `${role} retry waits ${formatDuration(Math.max(0, queued.notBefore - now))} (backoff after a failure)`
        : `${role} queued for ${formatDuration(now - queued.queuedAt)}: every agent slot is busy`,
    color: 'yellow',
  });
}

/** The latest run's failure: what, which attempt, its error and where its transcript is. */
function pushFailure(head: DetailLine[], row: WorkItemRow, run: AgentRun, state: EngineState): void {
  if (run.status !== 'failed' && run.status !== 'timed-out') return;
  const failure = state.failures[failureKey(run.role, row.item.id)];
  head.push(RULE);
  head.push({
    text: `${run.role} ${run.status === 'timed-out' ? 'timed out' : 'failed'}${failure ? ` (attempt ${failure.attempts})` : ''}`,
    color: 'red',
    bold: true,
  });
  if (run.error) for (const line of run.error.split('\n')) head.push({ text: line, color: 'red' });
  head.push({ text: `session ${run.sessionID}`, dim: true });
  if (run.logFilePath) head.push({ text: `transcript ${run.logFilePath} (l opens it)`, dim: true });
  if (row.displayStatus === 'failed') {
    head.push({
      text:
        run.role === 'implementor'
          ? 'd retries the implementor · u moves the item to pending'
          : 'd retries the reviewer',
      color: 'yellow',
    });
  }
}

/** The linked revision: branch and head, its checks (with the log's end when red), files and reviews. */
function pushRevision(head: DetailLine[], revision: Revision, inputs: DetailInputs): void {
  head.push(RULE);
  head.push({ text: `revision ${revisionName(revision)} ${revision.title}`, bold: true });
  head.push({
    text: `branch ${revision.headRef} · head ${revision.headSHA.slice(0, 12)}${revision.url ? ` · ${revision.url}` : ''}`,
    dim: true,
  });
  pushChecks(head, revision, inputs);
  if (inputs.files !== null) {
    pushFetched(head, inputs.files, 'changed files', (files) => [
      { text: `${files.length} file${files.length === 1 ? '' : 's'} changed` },
      ...files.map((file) => ({
        text: `  ${FILE_STATUS_MARK[file.status] ?? '?'} ${file.path}`,
        dim: true,
      })),
    ]);
  }
  if (inputs.reviews !== null) {
    pushFetched(head, inputs.reviews, 'reviews', (history) => buildReviewLines(history));
  }
}

function pushChecks(head: DetailLine[], revision: Revision, inputs: DetailInputs): void {
  const pipeline = revision.pipeline;
  if (pipeline === null) head.push({ text: 'checks: unknown', dim: true });
  else if (pipeline.status === 'pending') head.push({ text: 'checks: pending…', color: 'yellow' });
  else if (pipeline.status === 'success') {
    head.push({ text: 'checks: ✔ passed', color: 'green' });
    if (pipeline.url) head.push({ text: describeChecksLog(pipeline.url), dim: true });
  } else {
    head.push({ text: `checks: ✖ failed${pipeline.reason ? ` — ${pipeline.reason}` : ''}`, color: 'red' });
    if (pipeline.url) head.push({ text: describeChecksLog(pipeline.url), dim: true });
    pushFetched(head, inputs.checksLog, 'checks log', (lines) => lines.map((text) => ({ text, dim: true })));
  }
  const checkRounds = inputs.state.checkRounds[inputs.row.item.id] ?? 0;
  if (checkRounds > 0) {
    head.push({
      text: `checks failed ${checkRounds} time${checkRounds === 1 ? '' : 's'} since the last approval or reset (each one sent back for rework up to maxCheckRounds)`,
      color: 'red',
    });
  }
}

const FILE_STATUS_MARK: Record<string, string> = {
  added: 'A',
  modified: 'M',
  removed: 'D',
  renamed: 'R',
  copied: 'C',
  changed: 'M',
};

function buildReviewLines(history: ReviewHistory): DetailLine[] {
  if (history.reviews.length === 0 && history.inlineComments.length === 0) {
    return [{ text: 'no review yet', dim: true }];
  }
  const lines: DetailLine[] = [];
  history.reviews.forEach((review, index) => {
    const latest = index === history.reviews.length - 1;
    const { said, replaced } = describeReviewVerdict(review);
    const approved = said === 'approved';
    const mark = approved ? '✔ ' : said === 'changes requested' ? '✖ ' : '';
    lines.push({
      text: `review ${index + 1}/${history.reviews.length} by ${review.author}: ${mark}${said}${replaced && said !== 'dismissed' ? ' (replaced)' : ''}`,
      color: approved ? 'green' : 'yellow',
      bold: latest,
    });
    // Earlier reviews are summarised by their verdict; the latest one is shown in full.
    if (latest) for (const text of review.body.split('\n')) lines.push({ text: `  ${text}` });
  });
  for (const comment of history.inlineComments) {
    lines.push({
      text: `  ${comment.path}${comment.line === null ? '' : `:${comment.line}`} — ${comment.author}`,
      color: 'cyan',
    });
    for (const text of comment.body.split('\n')) lines.push({ text: `    ${text}` });
  }
  return lines;
}

/** Decisions and logged questions: a rule and the lines once there are any; loading and errors say so. */
function pushNotes(head: DetailLine[], notes: Fetched<ItemAgentNotes> | null): void {
  if (notes === null) return;
  if (notes.status === 'ok') {
    const lines = buildAgentNoteLines(notes.value);
    if (lines.length > 0) head.push(RULE, ...lines);
    return;
  }
  head.push(RULE);
  pushFetched(head, notes, "agents' decisions and questions", () => []);
}

function pushFetched<T>(
  lines: DetailLine[],
  fetched: Fetched<T> | null,
  what: string,
  render: (value: T) => DetailLine[],
): void {
  if (fetched === null) return;
  if (fetched.status === 'loading') lines.push({ text: `loading ${what}…`, dim: true });
  else if (fetched.status === 'error')
    lines.push({ text: `cannot load ${what}: ${fetched.message}`, color: 'red' });
  else lines.push(...render(fetched.value));
}

function fromLines(lines: DetailLine[], live: boolean): DetailContent {
  return { length: lines.length, at: (index) => lines[index] ?? { text: '' }, live };
}

/** A local checks log can be opened with `c`; a CI link is shown as it is. */
function describeChecksLog(url: string): string {
  return isAbsolute(url) ? `log ${url} (c opens it)` : `checks ${url}`;
}
