import { type FSWatcher, watch } from 'node:fs';
import { type FileHandle, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '@openai/codex-sdk';
import { isRecord } from '../../shared/is-record.ts';

/** How often the tail looks for the thread's rollout file until codex has created it. */
const FIND_RETRY_MS = 100;
/** A longer line is not a usage record (a rollout line may carry a whole tool output). */
const MAX_LINE_CHARS = 1_000_000;

export interface CodexUsageTail {
  /** Starts following the thread's rollout file (found under `<CODEX_HOME>/sessions/`). Idempotent. */
  follow(threadId: string): void;
  /** Reads what the file holds now, then stops watching (before the rollout file is removed). */
  close(): Promise<void>;
}

export interface CodexUsageTailOptions {
  /** `<CODEX_HOME>/sessions`, where codex writes `YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`. */
  sessionsDir: string;
  /** The thread's cumulative usage after each model response, and the model codex says it uses. */
  onUsage(usage: Usage, model: string | null): void;
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;

function readTokenUsage(value: unknown): Usage | null {
  if (!isRecord(value)) return null;
  return {
    input_tokens: count(value.input_tokens),
    cached_input_tokens: count(value.cached_input_tokens),
    cache_write_input_tokens: count(value.cache_write_input_tokens),
    output_tokens: count(value.output_tokens),
    reasoning_output_tokens: count(value.reasoning_output_tokens),
  };
}

/**
 * The thread's cumulative usage one rollout line carries, if any: codex (0.163) appends a
 * `token_usage_record` (`thread_token_usage`) as soon as a model response has completed — before the tools it
 * asked for run — and an `event_msg` `token_count` (`info.total_token_usage`) after them. Both count the
 * whole thread, so the larger total wins and a line seen twice changes nothing.
 */
export function readRolloutUsageLine(line: string): { usage?: Usage; model?: string } | null {
  if (line.length > MAX_LINE_CHARS || !line.startsWith('{')) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(entry) || !isRecord(entry.payload)) return null;
  const { payload } = entry;
  if (entry.type === 'token_usage_record') {
    const usage = readTokenUsage(payload.thread_token_usage);
    return usage === null ? null : { usage };
  }
  if (entry.type === 'event_msg' && payload.type === 'token_count' && isRecord(payload.info)) {
    const usage = readTokenUsage(payload.info.total_token_usage);
    return usage === null ? null : { usage };
  }
  if (entry.type === 'turn_context' && typeof payload.model === 'string') return { model: payload.model };
  return null;
}

const totalTokens = (usage: Usage) => usage.input_tokens + usage.output_tokens;

/**
 * Follows one codex thread's rollout file while the run lasts, for the live usage signal: the codex SDK's
 * stream reports usage only when a turn completes, the rollout after every model response. The file is
 * watched with `fs.watch` (inotify: woken by codex's writes, no polling); only finding it, right after the
 * thread starts, retries every 100 ms until codex has created it. Each wake-up reads just the bytes added
 * since the last one. The rollout is codex's output, so only bounded numbers are taken from it.
 */
export function createCodexUsageTail(options: CodexUsageTailOptions): CodexUsageTail {
  let threadId: string | null = null;
  let closed = false;
  let findTimer: NodeJS.Timeout | null = null;
  let watcher: FSWatcher | null = null;
  let file: FileHandle | null = null;
  let offset = 0;
  let partial = '';
  let model: string | null = null;
  let best: Usage | null = null;
  // One read at a time; a wake-up during a read asks for one more after it.
  let reading: Promise<void> | null = null;
  let again = false;

  const readNew = async (): Promise<void> => {
    if (file === null) return;
    const chunks: Buffer[] = [];
    for (;;) {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      chunks.push(buffer.subarray(0, bytesRead));
    }
    if (chunks.length === 0) return;
    const lines = (partial + Buffer.concat(chunks).toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    if (partial.length > MAX_LINE_CHARS) partial = '';
    for (const line of lines) {
      const read = readRolloutUsageLine(line);
      if (read === null) continue;
      if (read.model !== undefined) model = read.model;
      if (read.usage !== undefined && (best === null || totalTokens(read.usage) > totalTokens(best))) {
        best = read.usage;
        options.onUsage(best, model);
      }
    }
  };

  const wake = (): Promise<void> => {
    if (reading !== null) {
      again = true;
      return reading;
    }
    reading = (async () => {
      try {
        do {
          again = false;
          await readNew();
        } while (again && !closed);
      } catch {
        // The file went away (the run is being cleaned up): nothing more to read.
      } finally {
        reading = null;
      }
    })();
    return reading;
  };

  const find = async (): Promise<void> => {
    findTimer = null;
    if (closed || threadId === null) return;
    const names = await readdir(options.sessionsDir, { recursive: true }).catch(() => [] as string[]);
    const name = names.find((entry) => entry.endsWith(`${threadId}.jsonl`));
    if (name === undefined) {
      findTimer = setTimeout(() => void find(), FIND_RETRY_MS);
      findTimer.unref();
      return;
    }
    const path = join(options.sessionsDir, name);
    try {
      file = await open(path, 'r');
      if (closed) {
        await file.close();
        file = null;
        return;
      }
      watcher = watch(path, { persistent: false }, () => void wake());
      watcher.on('error', () => {});
    } catch {
      return;
    }
    await wake();
  };

  return {
    follow(id) {
      if (threadId !== null || closed) return;
      threadId = id;
      void find();
    },
    async close() {
      if (closed) return;
      await wake();
      closed = true;
      if (findTimer !== null) clearTimeout(findTimer);
      watcher?.close();
      await reading;
      await file?.close().catch(() => {});
      file = null;
    },
  };
}
