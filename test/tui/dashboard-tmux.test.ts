/**
 * The dashboard as a user sees it: `flotilla run` on a real terminal (a detached tmux session on a private
 * server), agents through the real Claude Agent SDK answered by the scripted model server on 127.0.0.1. The
 * screen is read with capture-pane and keys are typed with send-keys.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { agentProcessesOf } from '../support/agent-processes-of.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { createTmuxSession, type TmuxSession } from './tmux-session.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup(), 60_000);

/** `flotilla run` (the dashboard: stdin and stdout are the tmux pane) in `repoRoot`. */
async function startDashboard(
  repoRoot: string,
  server: ModelServer,
  gitEnv: Record<string, string>,
): Promise<TmuxSession> {
  const session = await createTmuxSession({
    command: [process.execPath, FLOTILLA_BIN, 'run'],
    cwd: repoRoot,
    env: {
      ...gitEnv,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      IS_SANDBOX: '1',
      // As on CI machines: Ink would draw nothing until exit if the launcher let it see CI.
      CI: 'true',
    },
  });
  fixtures.defer(() => session.kill());
  return session;
}

/** The tail of the control plane's log, for failure messages. */
function logTail(repoRoot: string): string {
  const path = join(repoRoot, '.flotilla/logs/flotilla.log');
  if (!existsSync(path)) return '--- no flotilla.log ---';
  return `--- tail of flotilla.log ---\n${readFileSync(path, 'utf8').split('\n').slice(-40).join('\n')}`;
}

/** A list row: the id, then (after the padding) the display label. */
function row(id: string, label: string): RegExp {
  return new RegExp(`#${id} +${label}\\b`);
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string, context: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Presses q (and y if it asks), then waits for the command to exit 0 after `flotilla stopped`. */
async function quit(session: TmuxSession, context: () => string): Promise<string> {
  await session.sendKeys('q');
  const screen = await session.waitForScreen(
    (s) => s.includes('EXIT:') || s.includes('Quit?'),
    30_000,
    'the dashboard to quit or ask',
    context,
  );
  if (screen.includes('Quit?') && !screen.includes('EXIT:')) await session.sendKeys('y');
  return session.waitForScreen((s) => /EXIT:\d+/.test(s), 60_000, 'flotilla run to exit', context);
}

/** An implementor whose first model reply never comes (until the server closes). No planner is needed. */
function slowImplementorScenario(): ScenarioSpec {
  return {
    name: 'slow-implementor',
    routes: [
      {
        name: 'implementor',
        match: { systemIncludes: 'You are the implementor' },
        steps: [{ delayMs: 120_000, text: 'never answered' }],
      },
    ],
  };
}

describe('flotilla run on a terminal (tmux)', () => {
  it('shows the demo backlog planned, implemented, reviewed and approved, and quits with q', async () => {
    const repo = await fixtures.demoRepository();
    const server = await fixtures.serve();
    const session = await startDashboard(repo.root, server, repo.gitEnv);
    const context = () => logTail(repo.root);

    await session.waitForScreen(
      (s) => s.includes('NEEDS YOU') || s.includes('AGENTS'),
      60_000,
      'the dashboard',
      context,
    );
    const screen = await session.waitForScreen(
      (s) => row('1', 'APPROVED').test(s) && row('2', 'APPROVED').test(s),
      150_000,
      '#1 and #2 APPROVED',
      context,
    );
    expect(screen).toContain('NEEDS YOU (2)');

    const end = await quit(session, context);
    expect(end).toContain('flotilla stopped');
    expect(end).toContain('EXIT:0');
  }, 300_000);

  it('flotilla demo --dashboard stays open after the loop is done, until q; then prints the summary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-demo-dashboard-'));
    fixtures.defer(() => rm(dir, { recursive: true, force: true }));
    const session = await createTmuxSession({
      command: [process.execPath, FLOTILLA_BIN, 'demo', '--dashboard'],
      cwd: dir,
      env: { IS_SANDBOX: '1', CI: 'true' },
    });
    fixtures.defer(() => session.kill());
    const done = await session.waitForScreen(
      (s) => row('1', 'APPROVED').test(s) && row('2', 'APPROVED').test(s),
      180_000,
      '#1 and #2 APPROVED in the demo',
    );
    expect(done).toContain('NEEDS YOU (2)');
    // The loop is over (both items wait for a human) and the dashboard is still there: nothing exits
    // on idle. Several polls later it still shows the board and no exit code.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const later = await session.capture();
    expect(later).not.toContain('EXIT:');
    expect(later).toMatch(row('2', 'APPROVED'));

    const end = await quit(session, () => '');
    expect(end).toContain('EXIT:0');
    expect(end).toMatch(/#2 approved +Add farewell/);
  }, 300_000);

  it('dispatches a blocked item with d → y, cancels its implementor with x → y (parked as blocked), and quits', async () => {
    const repo = await fixtures.demoRepository();
    const gitEnv = { ...process.env, ...repo.gitEnv };
    // No approved spec, so no planner; two blocked items made with the CLI.
    await writeFile(
      join(repo.root, 'docs/specs/greetings.md'),
      '---\nstatus: draft\n---\n# Greetings\n\nNot yet.\n',
    );
    execFileSync('git', ['commit', '--quiet', '-am', 'Spec back to draft'], { cwd: repo.root, env: gitEnv });
    for (const title of ['Add greet(name)', 'Add farewell(name)']) {
      execFileSync(
        process.execPath,
        [FLOTILLA_BIN, 'work', 'create', '--title', title, '--label', 'status:blocked'],
        {
          cwd: repo.root,
          env: gitEnv,
        },
      );
    }
    const server = await fixtures.serve(slowImplementorScenario());
    const session = await startDashboard(repo.root, server, repo.gitEnv);
    const context = () =>
      `${logTail(repo.root)}\n--- model server requests ---\n${server.requests.map((r) => `${r.kind} ${r.route ?? ''}`).join('\n')}`;

    await session.waitForScreen(
      (s) => row('1', 'BLOCKED').test(s) && row('2', 'BLOCKED').test(s),
      60_000,
      'both items BLOCKED',
      context,
    );
    // The first row is selected; Down selects #2, whose keys include d dispatch.
    await session.sendKeys('Down');
    await session.waitForScreen((s) => /›#2 +BLOCKED/.test(s), 20_000, '#2 selected', context);
    await session.sendKeys('d');
    await session.waitForScreen(
      (s) => s.includes('Dispatch an implementor for #2? (y/n)'),
      20_000,
      'the dispatch question',
      context,
    );
    await session.sendKeys('y');
    await session.waitForScreen((s) => /#2 +(WIP|QUEUED)\b/.test(s), 30_000, '#2 WIP or QUEUED', context);
    // The run really started: the implementor's request reached the model server (and is held there).
    await waitUntil(
      () => server.requestsFor('implementor').length > 0,
      60_000,
      'the implementor request at the model server',
      context,
    );
    const screen = await session.waitForScreen((s) => row('2', 'WIP').test(s), 30_000, '#2 WIP', context);
    expect(screen).toMatch(row('1', 'BLOCKED'));
    expect(agentProcessesOf(repo.root).length).toBeGreaterThan(0);

    await session.sendKeys('x');
    await session.waitForScreen(
      (s) => s.includes('Cancel the implementor on #2?'),
      20_000,
      'the cancel question',
      context,
    );
    await session.sendKeys('y');
    await session.waitForScreen((s) => row('2', 'BLOCKED').test(s), 60_000, '#2 BLOCKED again', context);
    await waitUntil(
      () => agentProcessesOf(repo.root).length === 0,
      30_000,
      'the agent process to end',
      () => `${agentProcessesOf(repo.root).join(' ')}\n${context()}`,
    );
    expect(existsSync(join(repo.root, '.worktrees/agent/flotilla/2'))).toBe(false);

    const end = await quit(session, context);
    expect(end).toContain('flotilla stopped');
    expect(end).toContain('EXIT:0');
  }, 300_000);
});
