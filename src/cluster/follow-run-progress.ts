import type { AgentNote } from '../domain/index.ts';
import type { LiveUsageReport } from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import { addEarlierExecutionsUsage } from './add-earlier-executions-usage.ts';
import type { RunProgress, RunProgressRow } from './create-run-progress.ts';

export interface FollowedRunProgress {
  /** The output text as the slots streamed it, then ends once `done` settled and the last rows were read. */
  output: AsyncIterable<string>;
  onUsage(listener: (report: LiveUsageReport) => void): () => void;
  onActivity(listener: () => void): () => void;
  /** The notes the run recorded, as the slots streamed them (mid-run). */
  onNote(listener: (note: AgentNote) => void): () => void;
  /** Resolves once the last rows were read (after `done` settled). */
  ended: Promise<void>;
  /** The text streamed by this executor so far (the reply's output starts with it when it finished the run). */
  streamedBy(executor: string): string;
  /** How many notes this executor streamed (the reply's notes start with them when it finished the run). */
  notesStreamedBy(executor: string): number;
}

/**
 * The controller's side of a remote run's live progress: polls the run's rows (create-run-progress.ts) until
 * `done` settles, handing output to the output stream and usage and activity to their listeners. Reading is
 * best effort: a failed poll is logged and retried; the reply stays the authority on the result and its usage.
 */
export function followRunProgress(
  runID: string,
  progress: Pick<RunProgress, 'read'>,
  options: { pollMs: number; done: Promise<unknown>; logger: Logger },
): FollowedRunProgress {
  const usageListeners = new Set<(report: LiveUsageReport) => void>();
  const activityListeners = new Set<() => void>();
  const noteListeners = new Set<(note: AgentNote) => void>();
  const streamed = new Map<string, string>();
  const notesStreamed = new Map<string, number>();
  const latestUsage = new Map<string, RunProgressRow>();
  const pending: string[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  let settled = false;
  void options.done.finally(() => {
    settled = true;
  });
  const notify = () => {
    wake?.();
    wake = null;
  };
  const poll = async () => {
    let afterSeq = 0;
    for (;;) {
      const last = settled;
      try {
        for (const row of await progress.read(runID, afterSeq)) {
          afterSeq = row.seq;
          if (row.output.length > 0) {
            streamed.set(row.executor, (streamed.get(row.executor) ?? '') + row.output);
            pending.push(row.output);
          }
          if (row.usage !== null) {
            latestUsage.set(row.executor, row);
            // A requeued run's usage goes on from what its earlier executions spent, never back to zero.
            const usage = addEarlierExecutionsUsage(row.usage.usage, row.executor, [...latestUsage.values()]);
            const report = { usage: usage ?? row.usage.usage, model: row.usage.model };
            for (const listener of usageListeners) listener(report);
          }
          if (row.activity) for (const listener of activityListeners) listener();
          notesStreamed.set(row.executor, (notesStreamed.get(row.executor) ?? 0) + row.notes.length);
          for (const note of row.notes) for (const listener of noteListeners) listener(note);
        }
      } catch (error) {
        options.logger.warn('could not read a remote run’s progress', { runID, error: messageOf(error) });
      }
      notify();
      if (last) break;
      await Promise.race([new Promise((resolve) => setTimeout(resolve, options.pollMs)), options.done]).catch(
        () => undefined,
      );
    }
    finished = true;
    notify();
  };
  const ended = poll();
  return {
    ended,
    output: (async function* () {
      for (;;) {
        const chunk = pending.shift();
        if (chunk !== undefined) yield chunk;
        else if (finished) return;
        else
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
      }
    })(),
    onUsage(listener) {
      usageListeners.add(listener);
      return () => usageListeners.delete(listener);
    },
    onActivity(listener) {
      activityListeners.add(listener);
      return () => activityListeners.delete(listener);
    },
    onNote(listener) {
      noteListeners.add(listener);
      return () => noteListeners.delete(listener);
    },
    streamedBy: (executor) => streamed.get(executor) ?? '',
    notesStreamedBy: (executor) => notesStreamed.get(executor) ?? 0,
  };
}
