/**
 * Issue #28 §3 end to end: `flotilla run` on the real claude binary (the scripted model server on 127.0.0.1)
 * with two items implemented at once. Agent A (item #1) asks agent B (item #2) through `ask_agent` and gets
 * B's answer while B keeps working; B, holding A's question, asks A back and is refused at once (the two
 * would wait on each other) before it answers; A then asks B again with a 2 s timeout while B works on
 * without looking, and is told "no answer within 2 s". Both items end approved, and `flotilla
 * conversations` lists the three conversations. Each agent's model replies are a small state machine over
 * what its requests carry (the question pushed into B's session, the tool results A got), so nothing here
 * waits for a fixed time: the agents wait on files this test writes once the database shows the question.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentConversation } from '../../src/domain/index.ts';
import type { RequestView, Scenario, StepReply } from '../../src/model-server/index.ts';
import type { ContentBlockSpec } from '../../src/model-server/scenario-schema.ts';
import { createRunFixtures, FLOTILLA_BIN, QUICK_LOOP_SETTINGS } from '../support/create-run-fixtures.ts';
import { readDatabase } from '../support/flotilla-run-process.ts';
import { APPROVE } from '../support/run-scenarios.ts';
import { startFlotillaProcess } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TIMEOUT = 300_000;
const PAUSE = 'timeout 0.2 tail -f /dev/null';
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'done' };
const PLAN = {
  role: 'planner',
  create: [
    { tempID: 'a', title: 'Serve on the port', body: 'Objective: serve.', labels: [], blockedBy: [] },
    { tempID: 'b', title: 'Choose the port', body: 'Objective: choose.', labels: [], blockedBy: [] },
  ],
  close: [],
  update: [],
};

const bash = (command: string): ContentBlockSpec => ({ type: 'tool_use', name: 'Bash', input: { command } });
const tool = (name: string, input: Record<string, unknown>): StepReply => ({
  content: [{ type: 'tool_use', name: `mcp__flotilla__${name}`, input }],
});
const waitFor = (file: string) => `until [ -e '${file}' ]; do ${PAUSE}; done`;

/** What the agents saw, for the assertions. */
interface Seen {
  firstAnswer?: string;
  askBack?: string;
  timedOut?: string;
}

/**
 * A's replies: wait until B runs, ask it (again, should B not be joined yet), then ask with a 2 s timeout,
 * release B, write what it got and complete.
 */
function agentA(signals: Signals, seen: Seen) {
  let phase: 'start' | 'asking' | 'timeout' | 'write' | 'done' = 'start';
  return (request: RequestView): StepReply => {
    const result = request.lastToolResult?.text ?? '';
    if (phase === 'start') {
      phase = 'asking';
      return { content: [bash(waitFor(signals.bRunning))] };
    }
    if (phase === 'asking') {
      if (result.includes('Port 8080.')) {
        seen.firstAnswer = result;
        phase = 'timeout';
        return tool('ask_agent', { to: '2', question: 'Anyone there?', timeoutSeconds: 2 });
      }
      // Should B not have joined yet, the ask ended at once ("nobody was asked"): a pause, then again.
      if (result.includes('nobody was asked')) return { content: [bash(PAUSE)] };
      return tool('ask_agent', { to: '2', question: 'Which port?', timeoutSeconds: 120 });
    }
    if (phase === 'timeout') {
      seen.timedOut = result;
      writeFileSync(signals.release, '');
      phase = 'write';
      return { content: [bash("printf 'Port 8080.\\n' > reply.txt")] };
    }
    phase = 'done';
    return { structuredOutput: COMPLETED };
  };
}

/**
 * B's replies: say it runs, work until A's question is in its session, ask A back (refused), answer, then
 * keep working (a file, and a wait A's timeout ends) and complete.
 */
function agentB(signals: Signals, seen: Seen) {
  let phase: 'start' | 'question' | 'answer' | 'work' | 'hold' = 'start';
  let conversationID = '';
  return (request: RequestView): StepReply => {
    if (phase === 'start') {
      writeFileSync(signals.bRunning, '');
      phase = 'question';
      return { content: [bash(waitFor(signals.asked))] };
    }
    if (phase === 'question') {
      const id = /conversation (c-[a-z0-9-]+)/.exec(request.messagesText)?.[1];
      if (id === undefined) return { content: [bash(PAUSE)] };
      conversationID = id;
      phase = 'answer';
      return tool('ask_agent', { to: '1', question: 'And yours?', timeoutSeconds: 60 });
    }
    if (phase === 'answer') {
      seen.askBack = request.lastToolResult?.text ?? '';
      phase = 'work';
      return tool('answer_agent', { conversationId: conversationID, answer: 'Port 8080.' });
    }
    if (phase === 'work') {
      phase = 'hold';
      return { content: [bash("printf 'after\\n' > after.txt")] };
    }
    // Working on until A's timed ask ended (a request may come early: A's question pushed in mid-turn).
    if (!existsSync(signals.release)) return { content: [bash(waitFor(signals.release))] };
    return { structuredOutput: COMPLETED };
  };
}

interface Signals {
  bRunning: string;
  asked: string;
  release: string;
}

function conversationScenario(signals: Signals, seen: Seen): Scenario {
  const many = (respond: (request: RequestView) => StepReply) =>
    Array.from({ length: 200 }, () => ({ respond }));
  return {
    name: 'agent-conversations',
    routes: [
      {
        name: 'planner',
        match: { systemIncludes: 'You are the planner' },
        steps: [{ structuredOutput: PLAN }],
      },
      {
        name: 'reviewer',
        match: { systemIncludes: 'You are the reviewer' },
        steps: [{ structuredOutput: APPROVE }, { structuredOutput: APPROVE }],
      },
      // By body: each item's task context names its sibling's title (the plan's summary).
      {
        name: 'a',
        match: { systemIncludes: 'You are the implementor', firstUserIncludes: 'Objective: serve.' },
        steps: many(agentA(signals, seen)),
      },
      {
        name: 'b',
        match: { systemIncludes: 'You are the implementor', firstUserIncludes: 'Objective: choose.' },
        steps: many(agentB(signals, seen)),
      },
    ],
  };
}

describe('agents asking each other in flotilla run (claude)', () => {
  it(
    'A gets B’s answer while B works on; the ask back is refused at once; a timeout ends cleanly',
    async () => {
      const repo = await fixtures.configuredDemoRepository({
        ...QUICK_LOOP_SETTINGS,
        validation: { commands: [] },
      });
      // Agents read the repository (not /tmp, which is private in their sandbox): the signals live there.
      const dir = join(repo.root, '.signals');
      mkdirSync(dir);
      const signals = {
        bRunning: join(dir, 'b-running'),
        asked: join(dir, 'asked'),
        release: join(dir, 'release'),
      };
      const seen: Seen = {};
      const server = await fixtures.serve(conversationScenario(signals, seen));
      const run = startFlotillaProcess(fixtures, {
        cwd: repo.root,
        args: ['run', '--headless', '--until-idle'],
        env: { ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
      });
      // B may go on once the question it is asked is recorded (the broker hands it over as it records it).
      const watch = setInterval(() => {
        // Read once flotilla has migrated its database (agents run by then), never alongside it.
        if (existsSync(signals.asked) || !run.output().includes('implementor started')) return;
        const asked = readDatabase(
          repo.root,
          (db) =>
            db
              .prepare(
                "SELECT count(*) AS n FROM agent_conversations WHERE question = 'Which port?' AND status = 'open'",
              )
              .get() as {
              n: number;
            },
        );
        if (asked.n > 0) writeFileSync(signals.asked, '');
      }, 100);
      fixtures.defer(async () => clearInterval(watch));
      expect(await run.exited, `${run.output()}\n${JSON.stringify(seen)}`).toBe(0);
      clearInterval(watch);
      expect(run.output()).toContain('work item #1 review → approved');
      expect(run.output()).toContain('work item #2 review → approved');

      expect(seen.firstAnswer).toContain('Port 8080.');
      expect(seen.askBack).toMatch(/is itself waiting for your answer/);
      expect(seen.timedOut).toMatch(/no answer within 2 s/);
      const git = (args: string[]) => execFileSync('git', args, { cwd: repo.root }).toString();
      // A wrote what B told it; B kept working after it answered.
      expect(git(['show', 'flotilla/1:reply.txt'])).toBe('Port 8080.\n');
      expect(git(['show', 'flotilla/2:after.txt'])).toBe('after\n');

      const listed = JSON.parse(
        execFileSync(process.execPath, [FLOTILLA_BIN, 'conversations', '--json'], {
          cwd: repo.root,
          env: { ...process.env, ...repo.gitEnv },
        }).toString(),
      ) as AgentConversation[];
      const rows = listed.map((conversation) => [
        conversation.question,
        conversation.status,
        conversation.from.workItemID,
      ]);
      // A's first ask may come before B joined (a loaded machine): it ends at once, not-running, and A asks again.
      const early = rows.filter(([, status]) => status === 'not-running');
      expect(early.every(([question, , from]) => question === 'Which port?' && from === '1')).toBe(true);
      expect(rows.filter(([, status]) => status !== 'not-running').sort()).toEqual(
        [
          ['Which port?', 'answered', '1'],
          ['And yours?', 'refused', '2'],
          ['Anyone there?', 'timeout', '1'],
        ].sort(),
      );
    },
    TIMEOUT,
  );
});
