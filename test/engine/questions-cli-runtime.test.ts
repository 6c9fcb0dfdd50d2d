/**
 * Questions → waiting-for-input → `flotilla answer` → the same session resumes, through the whole control
 * plane: the local provider on SQLite, real git worktrees, the generic CLI runtime running the fake agent CLI
 * as a real process, and a restart while the item waits.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import { resolveFlotillaPaths } from '../../src/shared/resolve-flotilla-paths.ts';
import { openDatabase } from '../../src/storage/index.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import type { FakeAgentCall, FakeAgentRound } from '../support/cli-runtime/fake-agent-cli.ts';
import { FAKE_AGENT_PROGRAM } from '../support/cli-runtime-fixture.ts';
import { createRunFixtures, FAKE_AGENT_LOOP_SETTINGS } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const rounds: FakeAgentRound[] = [
  {
    promptIncludes: 'A human answered your questions',
    steps: [
      { write: { path: 'src/store.js', content: 'export const store = "sqlite";\n' } },
      { commit: 'store' },
      { signal: { status: 'done', result: { outcome: 'completed', summary: 'store added' } } },
    ],
  },
  {
    promptIncludes: '<your planner result>',
    steps: [
      {
        signal: {
          status: 'done',
          result: {
            create: [
              { tempID: 'a', title: 'Store', body: 'Objective: keep data.', labels: [], blockedBy: [] },
            ],
            close: [],
            update: [],
          },
        },
      },
    ],
  },
  {
    promptIncludes: '<your implementor result>',
    steps: [
      { write: { path: 'src/half.js', content: 'export const half = 1;\n' } },
      { signal: { status: 'questions', questions: ['Which database should the store use?'] } },
    ],
  },
  {
    promptIncludes: '<your reviewer result>',
    steps: [
      { signal: { status: 'done', result: { review: { verdict: 'approve', summary: 'ok', comments: [] } } } },
    ],
  },
];

describe('questions on the CLI runtime, answered with flotilla answer, across a restart', () => {
  it('waits with the worktree kept, survives a restart, resumes the same session with the answer', async () => {
    const scriptPath = await fixtures.fakeAgentScript(rounds);
    const cli = { runtime: 'cli', preset: 'claude', program: FAKE_AGENT_PROGRAM };
    const repo = await fixtures.configuredDemoRepository(
      { runtimes: { planner: cli, implementor: cli, reviewer: cli }, ...FAKE_AGENT_LOOP_SETTINGS },
      { message: 'CLI runtimes' },
    );
    const start = () =>
      fixtures.startControlPlane(repo, {
        FAKE_AGENT_SCRIPT: scriptPath,
        // The claude preset's preflight wants a key; the fake agent never uses it.
        ANTHROPIC_API_KEY: 'unused-by-the-fake',
      });

    const first = await start();
    await waitUntil(
      () =>
        Object.values(first.engine.getState().workItems).some((item) => item.status === 'waiting-for-input'),
      60_000,
      'the item to wait for input',
    );
    const waiting = Object.values(first.engine.getState().waitingForInput)[0];
    if (waiting === undefined) throw new Error('no waiting session in the state');
    const id = waiting.workItemID;
    const worktree = waiting.session.worktree?.path ?? '';
    expect(existsSync(join(worktree, 'src/half.js'))).toBe(true);
    // Answering something else is refused clearly, and an empty answer too.
    const notWaiting = await runFlotillaInProcess(repo.root, ['answer', '999', 'x']);
    expect(notWaiting.code).toBe(1);
    expect(notWaiting.stderr).toContain('work item #999 does not exist');
    const empty = await runFlotillaInProcess(repo.root, ['answer', id, '   ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the answer is empty');
    await first.close();

    // The restart's crash recovery keeps the waiting worktree; the wait is still recorded in SQLite.
    const second = await start();
    expect(existsSync(join(worktree, 'src/half.js'))).toBe(true);
    expect(second.recovered.reapedWorktrees).not.toContain(worktree);
    expect(second.engine.getState().waitingForInput[id]?.questions).toEqual([
      'Which database should the store use?',
    ]);
    const listed = await runFlotillaInProcess(repo.root, ['work', 'list', '--status', 'waiting-for-input']);
    expect(listed.stdout).toContain('Store');
    const show = await runFlotillaInProcess(repo.root, ['work', 'show', id]);
    expect(show.stdout).toContain('Which database should the store use?');

    const answered = await runFlotillaInProcess(repo.root, ['answer', id, 'Use SQLite.']);
    expect(answered.stderr).toBe('');
    expect(answered.code).toBe(0);
    await waitUntil(
      () => second.engine.getState().workItems[id]?.status === 'approved',
      60_000,
      'the answered item to be approved',
    );
    const notWaitingAnymore = await runFlotillaInProcess(repo.root, ['answer', id, 'again']);
    expect(notWaitingAnymore.code).toBe(1);
    expect(notWaitingAnymore.stderr).toContain(`#${id} is approved, not waiting-for-input`);

    // The resume continued the first session: same id, its earlier prompt in the conversation.
    const calls = (await readFile(`${scriptPath}.calls.jsonl`, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as FakeAgentCall);
    const resumed = calls.find((call) => call.prompt.includes('A human answered your questions'));
    expect(resumed?.resumed).toBe(waiting.sessionID);
    expect(resumed?.history.some((prompt) => prompt.includes('<your implementor result>'))).toBe(true);
    expect(resumed?.prompt).toContain('Use SQLite.');
    expect(resumed?.cwd).toBe(worktree);
    const runs = second.persistence.listRuns({ workItemID: id });
    const implementorRuns = runs.filter((run) => run.role === 'implementor').reverse();
    expect(
      implementorRuns.map((run) => [run.sessionNumber ?? 1, run.askedQuestions === true, run.status]),
    ).toEqual([
      [1, true, 'completed'],
      [2, false, 'completed'],
    ]);
    const history = await runFlotillaInProcess(repo.root, ['runs']);
    expect(history.stdout).toMatch(/session 2/);
    // The waiting record is gone, and so is the worktree, once the resumed run finished.
    // The answers are the item's task context (issue #28 §1): every later run on it is given them (here the
    // reviewer), and SQLite keeps them.
    const later = calls.slice(resumed === undefined ? calls.length : calls.indexOf(resumed) + 1);
    expect(
      later.some(
        (call) =>
          call.prompt.includes("A human answered the implementor's questions:") &&
          call.prompt.includes('Use SQLite.'),
      ),
      'a later prompt with the answers',
    ).toBe(true);
    const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
    expect(
      db
        .prepare("SELECT summary FROM task_context WHERE type = 'answers' AND work_item_id = ?")
        .pluck()
        .all(id),
    ).toEqual(["A human answered the implementor's questions:\nUse SQLite."]);
    expect(db.prepare('SELECT COUNT(*) FROM waiting_sessions').pluck().get()).toBe(0);
    db.close();
    expect(existsSync(worktree)).toBe(false);
  }, 180_000);
});
