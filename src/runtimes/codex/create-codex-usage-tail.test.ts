import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Usage } from '@openai/codex-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexUsageTail, readRolloutUsageLine } from './create-codex-usage-tail.ts';

const tokens = (input: number, output: number) => ({
  input_tokens: input,
  cached_input_tokens: 0,
  cache_write_input_tokens: 0,
  output_tokens: output,
  reasoning_output_tokens: 0,
  total_tokens: input + output,
});
/** The line codex 0.163 appends after each model response. */
const record = (input: number, output: number) =>
  JSON.stringify({
    timestamp: '2026-11-23T17:16:30.861Z',
    type: 'token_usage_record',
    payload: { response_id: 'resp_1', usage: tokens(1, 1), thread_token_usage: tokens(input, output) },
  });

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  dir = null;
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('readRolloutUsageLine', () => {
  it('reads the thread totals of token_usage_record and token_count lines, and turn_context’s model', () => {
    expect(readRolloutUsageLine(record(100, 5))).toEqual({
      usage: {
        input_tokens: 100,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        output_tokens: 5,
        reasoning_output_tokens: 0,
      },
    });
    const tokenCount = JSON.stringify({
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: { total_token_usage: tokens(300, 7), last_token_usage: tokens(1, 1) },
      },
    });
    expect(readRolloutUsageLine(tokenCount)?.usage?.input_tokens).toBe(300);
    expect(
      readRolloutUsageLine(JSON.stringify({ type: 'turn_context', payload: { model: 'gpt-5' } })),
    ).toEqual({
      model: 'gpt-5',
    });
  });

  it('ignores other lines, bad JSON and numbers that are not counts', () => {
    expect(
      readRolloutUsageLine(JSON.stringify({ type: 'response_item', payload: { type: 'message' } })),
    ).toBeNull();
    expect(readRolloutUsageLine('{"type": "token_usage_record"')).toBeNull();
    expect(readRolloutUsageLine('')).toBeNull();
    const negative = JSON.stringify({
      type: 'token_usage_record',
      payload: { thread_token_usage: { input_tokens: -5, output_tokens: 'many' } },
    });
    expect(readRolloutUsageLine(negative)?.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });
});

describe('createCodexUsageTail', () => {
  it('finds the thread’s rollout once codex creates it and reports each larger total as lines arrive', async () => {
    dir = await mkdtemp(join(tmpdir(), 'codex-tail-'));
    const sessions = join(dir, 'sessions');
    const reports: { usage: Usage; model: string | null }[] = [];
    const tail = createCodexUsageTail({
      sessionsDir: sessions,
      onUsage: (usage, model) => reports.push({ usage, model }),
    });
    tail.follow('thread-1');
    // Another thread's rollout in the same CODEX_HOME is not ours.
    await mkdir(join(sessions, '2026', '11', '23'), { recursive: true });
    await appendFile(join(sessions, '2026', '11', '23', 'rollout-x-thread-2.jsonl'), `${record(999, 9)}\n`);
    const file = join(sessions, '2026', '11', '23', 'rollout-2026-11-23T17-16-30-thread-1.jsonl');
    await appendFile(file, `${JSON.stringify({ type: 'turn_context', payload: { model: 'gpt-5' } })}\n`);
    await appendFile(file, `${record(100, 5)}\n`);
    await waitFor(() => reports.length === 1);
    expect(reports[0]).toMatchObject({ model: 'gpt-5', usage: { input_tokens: 100, output_tokens: 5 } });
    // A line written in two pieces is read once it is whole; the same total again is no news.
    const line = record(250, 9);
    await appendFile(file, line.slice(0, 40));
    await appendFile(file, `${line.slice(40)}\n${record(250, 9)}\n`);
    await waitFor(() => reports.length === 2);
    expect(reports[1]?.usage.input_tokens).toBe(250);
    // close() reads what is there before it stops.
    await appendFile(file, `${record(400, 10)}\n`);
    await tail.close();
    expect(reports.map((report) => report.usage.input_tokens)).toEqual([100, 250, 400]);
    await appendFile(file, `${record(500, 10)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports).toHaveLength(3);
  });
});
