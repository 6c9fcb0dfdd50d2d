import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import type { AgentNote } from '../domain/index.ts';
import type { LiveUsageReport } from '../engine/runtime-contract/index.ts';
import { silentLogger } from '../logging/logger.ts';
import { createRunProgress, type RunProgress } from './create-run-progress.ts';
import { followRunProgress } from './follow-run-progress.ts';
import { startProgressStream } from './start-progress-stream.ts';

let postgres: TestPostgres;
let pool: pg.Pool;
let progress: RunProgress;
beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 3 });
  progress = createRunProgress(pool);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

const usage = (inputTokens: number): LiveUsageReport => ({
  usage: { costUSD: inputTokens / 1000, inputTokens, outputTokens: 1, turns: 1 },
  model: 'claude-test',
});

describe('live progress of a remote run (PostgreSQL)', () => {
  it("the controller follows a slot's text, usage and activity while the run goes on, then the rest", async () => {
    // The slot's side: its handle's usage and activity listeners, fed by the test as a runtime would.
    let reportUsage: (report: LiveUsageReport) => void = () => {};
    let reportActivity: () => void = () => {};
    const stream = startProgressStream(
      {
        onUsage: (listener) => {
          reportUsage = listener;
          return () => {};
        },
        onActivity: (listener) => {
          reportActivity = listener;
          return () => {};
        },
      },
      { send: (entry) => progress.append('run-1', 'slot-a', entry), flushMs: 50, logger: silentLogger },
    );
    let finish: (value: string) => void = () => {};
    const done = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const live = followRunProgress('run-1', progress, { pollMs: 50, done, logger: silentLogger });
    const usages: number[] = [];
    let activities = 0;
    live.onUsage((report) => usages.push(report.usage.inputTokens ?? 0));
    live.onActivity(() => {
      activities += 1;
    });
    const chunks: string[] = [];
    const reading = (async () => {
      for await (const chunk of live.output) chunks.push(chunk);
    })();

    stream.output('Reading the code. ');
    reportUsage(usage(100));
    reportActivity();
    // Seen by the controller while the run still runs (`done` has not settled).
    for (let tries = 0; usages.length === 0 || chunks.length === 0; tries += 1) {
      if (tries > 200) throw new Error('the progress never arrived');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(chunks.join('')).toBe('Reading the code. ');
    expect(usages).toEqual([100]);
    expect(activities).toBe(1);

    stream.output('Done.');
    reportUsage(usage(250));
    await stream.stop();
    finish('replied');
    await reading;
    await live.ended;
    expect(chunks.join('')).toBe('Reading the code. Done.');
    expect(usages).toEqual([100, 250]);
    expect(live.streamedBy('slot-a')).toBe('Reading the code. Done.');
    expect(live.streamedBy('slot-b')).toBe('');

    await progress.forget('run-1');
    expect(await progress.read('run-1', 0)).toEqual([]);
  });
});

describe('notes of a remote run (PostgreSQL)', () => {
  it('reach the controller mid-run in order; it knows how many each executor streamed', async () => {
    let recordNote: (note: AgentNote) => void = () => {};
    const stream = startProgressStream(
      {
        onNote: (listener) => {
          recordNote = listener;
          return () => {};
        },
      },
      { send: (entry) => progress.append('run-notes', 'slot-a', entry), flushMs: 50, logger: silentLogger },
    );
    let finish: (value: string) => void = () => {};
    const done = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const live = followRunProgress('run-notes', progress, { pollMs: 50, done, logger: silentLogger });
    const notes: AgentNote[] = [];
    live.onNote((note) => notes.push(note));
    recordNote({ kind: 'decision', decision: 'plain ESM', why: 'the repo is' });
    recordNote({ kind: 'question', text: 'Trim the name?' });
    for (let tries = 0; notes.length < 2; tries += 1) {
      if (tries > 200) throw new Error('the notes never arrived');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    recordNote({ kind: 'summary', text: 'greet added' });
    await stream.stop();
    finish('replied');
    await live.ended;
    expect(notes).toEqual([
      { kind: 'decision', decision: 'plain ESM', why: 'the repo is' },
      { kind: 'question', text: 'Trim the name?' },
      { kind: 'summary', text: 'greet added' },
    ]);
    expect(live.notesStreamedBy('slot-a')).toBe(3);
    expect(live.notesStreamedBy('slot-b')).toBe(0);
  });
});
