import type { AgentNote } from '../domain/index.ts';
import type { AgentRunHandle, LiveUsageReport } from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { RunProgressEntry } from './create-run-progress.ts';

export interface ProgressStream {
  /** A chunk of the agent's text (the executor reads the handle's output and hands each chunk here). */
  output(chunk: string): void;
  /** Stops, after sending what is left; a send in flight is awaited. */
  stop(): Promise<void>;
}

/**
 * A worker slot's side of a run's live progress (create-run-progress.ts): what the run produced since the
 * last send — its text, its latest cumulative usage, whether it was busy, the notes it recorded — sent every `flushMs`, one send at a
 * time. Best effort: a failed send is logged and its content sent with the next; the reply carries it all.
 */
export function startProgressStream(
  handle: Pick<AgentRunHandle, 'onUsage' | 'onActivity' | 'onNote'>,
  options: { send(entry: RunProgressEntry): Promise<void>; flushMs: number; logger: Logger },
): ProgressStream {
  let output = '';
  let usage: LiveUsageReport | null = null;
  let activity = false;
  let notes: AgentNote[] = [];
  let sending: Promise<void> = Promise.resolve();
  const unsubscribeUsage = handle.onUsage?.((report) => {
    usage = report;
  });
  const unsubscribeActivity = handle.onActivity?.(() => {
    activity = true;
  });
  const unsubscribeNotes = handle.onNote?.((note) => {
    notes.push(note);
  });
  const flush = () => {
    if (output.length === 0 && usage === null && !activity && notes.length === 0) return;
    const entry: RunProgressEntry = { output, usage, activity, notes };
    output = '';
    usage = null;
    activity = false;
    notes = [];
    sending = sending.then(() =>
      options.send(entry).catch((error: unknown) => {
        options.logger.warn('could not stream a run’s progress', { error: messageOf(error) });
        output = entry.output + output;
        usage ??= entry.usage;
        notes = [...entry.notes, ...notes];
      }),
    );
  };
  const timer = setInterval(flush, options.flushMs);
  return {
    output(chunk) {
      output += chunk;
    },
    async stop() {
      clearInterval(timer);
      unsubscribeUsage?.();
      unsubscribeActivity?.();
      unsubscribeNotes?.();
      flush();
      await sending;
    },
  };
}
