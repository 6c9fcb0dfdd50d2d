import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredAgentRun, StoredTranscriptChunk } from '../../storage/index.ts';
import { buildRunSessionChain } from './build-run-session-chain.ts';
import { readRunTranscript } from './read-run-transcript.ts';

/** The runs below name their transcripts here before the directory exists (made fresh for each test). */
const dir = join(tmpdir(), `flotilla-run-sessions-${process.pid}-${Date.now()}`);
beforeEach(() => mkdir(dir, { recursive: true }));
afterEach(() => rm(dir, { recursive: true, force: true }));

function run(
  sessionID: string,
  fields: Partial<StoredAgentRun> & { requestedAt: number; workItemID?: string },
): StoredAgentRun {
  return {
    role: 'implementor',
    sessionID,
    status: 'completed',
    logFilePath: join(dir, `${sessionID}.log`),
    error: null,
    endedAt: fields.requestedAt + 10,
    usage: null,
    cancelRequestedBy: null,
    failureReason: null,
    workItemID: '7',
    branchName: 'flotilla/7',
    ...fields,
  } as StoredAgentRun;
}

/** Item 7: a session that asked, its resume that asked again, the last resume; item 8 and a later fresh run between. */
const RUNS = [
  run('first', { requestedAt: 100, askedQuestions: true }),
  run('other-item', { requestedAt: 150, workItemID: '8', branchName: 'flotilla/8', sessionNumber: 2 }),
  run('second', { requestedAt: 200, sessionNumber: 2, askedQuestions: true }),
  run('third', { requestedAt: 300, sessionNumber: 3 }),
  run('fresh', { requestedAt: 400 }),
];
const history = {
  getRun: (id: string) => RUNS.find((candidate) => candidate.sessionID === id) ?? null,
  listRuns: () => [...RUNS].reverse(),
};

describe('buildRunSessionChain', () => {
  it('walks from any session of a run to its first and its last, by item, role and number', () => {
    const ids = (target: StoredAgentRun) => buildRunSessionChain(RUNS, target).map((r) => r.sessionID);
    for (const id of ['first', 'second', 'third'])
      expect(ids(history.getRun(id) as StoredAgentRun)).toEqual(['first', 'second', 'third']);
    expect(ids(RUNS[4] as StoredAgentRun)).toEqual(['fresh']);
    // A resume whose earlier sessions are not recorded is a chain of itself.
    expect(ids(RUNS[1] as StoredAgentRun)).toEqual(['other-item']);
  });
});

describe('readRunTranscript', () => {
  it('prints every session of a resumed run, oldest first, each under a line naming it', async () => {
    for (const id of ['first', 'second', 'third'])
      await writeFile(join(dir, `${id}.log`), `${id} transcript\n`);
    const { run: found, text } = await readRunTranscript(history, 'sec');
    expect(found.sessionID).toBe('second');
    expect(text).toBe(
      [
        '--- session 1 of 3: first (completed) ---\nfirst transcript\n',
        '--- session 2 of 3: second (completed) ---\nsecond transcript\n',
        '--- session 3 of 3: third (completed) ---\nthird transcript\n',
      ].join('\n'),
    );
  });

  it('says which earlier session lost its transcript; a single session is its file as it is', async () => {
    await writeFile(join(dir, 'third.log'), 'third transcript\n');
    await writeFile(join(dir, 'fresh.log'), 'fresh transcript\n');
    const { text } = await readRunTranscript(history, 'third');
    expect(text).toContain('--- session 1 of 3: first (completed) ---\n(the transcript of run first is gone');
    expect(text).toContain('--- session 3 of 3: third (completed) ---\nthird transcript\n');
    expect((await readRunTranscript(history, 'fresh')).text).toBe('fresh transcript\n');
  });
});

describe('readRunTranscript: a run on another machine of a cluster', () => {
  const chunk = (executor: string, seq: number, text: string): StoredTranscriptChunk => ({
    executor,
    sessionNumber: 1,
    seq,
    text,
    at: 1000 + seq,
  });
  const remote = run('remote', { requestedAt: 500, logFilePath: null, workItemID: '9', status: 'running' });
  const moved = run('moved', { requestedAt: 600, workItemID: '10' });
  const streamed: Record<string, StoredTranscriptChunk[]> = {
    remote: [chunk('slot-a', 0, '=== Agent Session ===\n'), chunk('slot-a', 1, 'so far\n')],
    moved: [
      chunk('slot-a', 0, 'first try\n'),
      chunk('slot-b', 0, 'second try\n'),
      chunk('slot-b', 1, 'end\n'),
    ],
  };
  const runs = [remote, moved];
  const clusterHistory = {
    getRun: (id: string) => runs.find((candidate) => candidate.sessionID === id) ?? null,
    listRuns: () => runs,
    transcripts: { chunksOf: (id: string) => streamed[id] ?? [] },
  };

  it('reads what its worker streamed when this machine has no file for it', async () => {
    expect((await readRunTranscript(clusterHistory, 'remote')).text).toBe('=== Agent Session ===\nso far\n');
  });

  it('gives each execution of a requeued run its own line, the one that went on last', async () => {
    expect((await readRunTranscript(clusterHistory, 'moved')).text).toBe(
      [
        '--- execution 1 of 2: worker slot slot-a (requeued: its worker stopped) ---\nfirst try\n',
        '--- execution 2 of 2: worker slot slot-b ---\nsecond try\nend\n',
      ].join('\n'),
    );
  });

  it('one machine (no streamed chunks): a run without a file is still exit 1 naming why', async () => {
    const local = { ...clusterHistory, transcripts: { chunksOf: () => [] } };
    await expect(readRunTranscript(local, 'remote')).rejects.toThrow(/has no transcript: it never started/);
    await expect(readRunTranscript(local, 'moved')).rejects.toThrow(/the transcript of run moved is gone/);
  });
});
