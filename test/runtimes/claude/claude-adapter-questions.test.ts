/**
 * Questions on the real SDK against the scripted model server: the agent stops with `outcome: 'questions'`,
 * the session and worktree are kept, and the resume continues the SAME SDK session (the model sees its
 * earlier turns and the answers as the next user message).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAgentQuestions } from '../../../src/domain/index.ts';
import type { ScenarioSpec } from '../../../src/model-server/scenario-schema.ts';
import { ASK_HUMAN_TOOL } from '../../../src/runtimes/claude/create-ask-human-tool.ts';
import {
  adapterFor,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

const scenario: ScenarioSpec = {
  name: 'questions-then-resume',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'implementor',
      match: { firstUserIncludes: '## Work Item #1' },
      steps: [
        {
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { file_path: '{{cwd}}/src/half.txt', content: 'half done\n' },
            },
          ],
        },
        {
          structuredOutput: {
            role: 'implementor',
            outcome: 'questions',
            questions: ['Which greeting: hello or hi?'],
          },
        },
        {
          // After the resume: the same conversation (two assistant turns before) plus the answers.
          expect: { lastUserIncludes: ['A human answered your questions', 'Say hello.'] },
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { file_path: '{{cwd}}/src/greeting.txt', content: 'hello\n' },
            },
          ],
        },
        { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greets' } },
      ],
    },
  ],
};

/** The same story, asked through the in-process `ask_human` MCP tool instead of the structured output. */
const toolScenario: ScenarioSpec = {
  name: 'ask-human-tool-then-resume',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'implementor',
      match: { firstUserIncludes: '## Work Item #1' },
      steps: [
        {
          // The tool is offered (the agent file lists its tools: the adapter adds it) and explained.
          expect: { toolsInclude: [ASK_HUMAN_TOOL], systemIncludes: `call the \`${ASK_HUMAN_TOOL}\` tool` },
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { file_path: '{{cwd}}/src/half.txt', content: 'half done\n' },
            },
          ],
        },
        {
          content: [
            { type: 'text', text: 'I need a decision first.' },
            {
              type: 'tool_use',
              name: ASK_HUMAN_TOOL,
              input: { questions: ['Which greeting: hello or hi?', 'Lower case?'] },
            },
          ],
        },
        {
          // After the resume: the tool's own result, then the answers as the next user message.
          expect: {
            messagesInclude: 'Your questions were sent to a human',
            lastUserIncludes: ['A human answered your questions', 'Say hello, lower case.'],
          },
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { file_path: '{{cwd}}/src/greeting.txt', content: 'hello\n' },
            },
          ],
        },
        { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greets' } },
      ],
    },
  ],
};

describe('Claude adapter: questions and resume', () => {
  it('the ask_human tool ends the run with its questions; the resume continues the same session', async () => {
    const adapter = await adapterFor(toolScenario, { transcripts: true });
    const asking = await adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() });
    const asked = await asking.result;
    if (!isAgentQuestions(asked)) throw new Error(`expected questions, got ${JSON.stringify(asked)}`);
    expect(asked.questions).toEqual(['Which greeting: hello or hi?', 'Lower case?']);
    expect(asked.askedBy).toBe('implementor');
    // The hook stopped the session after the call: no model request after the tool's result.
    expect(fixture.server?.requestsFor('implementor')).toHaveLength(2);
    const worktree = asked.session.worktree?.path ?? '';
    expect(readFileSync(join(worktree, 'src/half.txt'), 'utf8')).toBe('half done\n');
    expect(existsSync(asked.session.stateDir ?? '')).toBe(true);

    const resumed = await adapter.startAgent({
      ...implementorParams,
      sessionID: crypto.randomUUID(),
      resume: {
        session: asked.session,
        questions: asked.questions,
        answers: 'Say hello, lower case.',
        sessionNumber: 2,
      },
    });
    const result = await resumed.result;
    if (result.role !== 'implementor') throw new Error(`expected a result, got ${JSON.stringify(result)}`);
    expect(result.outcome).toBe('completed');
    expect(result.patch).toContain('b/src/half.txt');
    expect(result.patch).toContain('b/src/greeting.txt');
    expect(fixture.server?.report().problems).toEqual([]);
    expect(existsSync(worktree)).toBe(false);
    expect(existsSync(asked.session.stateDir ?? '')).toBe(false);
  }, 120_000);

  it('keeps the session and worktree on questions, then resumes the same SDK session with the answers', async () => {
    const adapter = await adapterFor(scenario, { transcripts: true });
    const asking = await adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() });
    const asked = await asking.result;
    if (!isAgentQuestions(asked)) throw new Error(`expected questions, got ${JSON.stringify(asked)}`);
    expect(asked.questions).toEqual(['Which greeting: hello or hi?']);
    const worktree = asked.session.worktree?.path ?? '';
    expect(readFileSync(join(worktree, 'src/half.txt'), 'utf8')).toBe('half done\n');
    expect(existsSync(asked.session.stateDir ?? '')).toBe(true);

    const resumedSessionID = crypto.randomUUID();
    const resumed = await adapter.startAgent({
      ...implementorParams,
      sessionID: resumedSessionID,
      resume: { session: asked.session, questions: asked.questions, answers: 'Say hello.', sessionNumber: 2 },
    });
    const result = await resumed.result;
    if (result.role !== 'implementor') throw new Error(`expected a result, got ${JSON.stringify(result)}`);
    expect(result.outcome).toBe('completed');
    // One patch with both sessions' work, taken against the first session's base commit.
    expect(result.patch).toContain('b/src/half.txt');
    expect(result.patch).toContain('b/src/greeting.txt');
    expect(fixture.server?.report().problems).toEqual([]);
    expect(readFileSync(resumed.logFilePath ?? '', 'utf8')).toContain('session 2: resuming the same session');
    // Each transcript's header numbers its session of the run (issue #28 §5).
    expect(readFileSync(asking.logFilePath ?? '', 'utf8')).toMatch(/\nSession: 1\n/);
    expect(readFileSync(resumed.logFilePath ?? '', 'utf8')).toMatch(/\nSession: 2\n/);
    // Done: the worktree and the kept state go, as after any run.
    expect(existsSync(worktree)).toBe(false);
    expect(existsSync(asked.session.stateDir ?? '')).toBe(false);
  }, 120_000);
});
