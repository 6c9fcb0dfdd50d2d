/**
 * The implementor's in-session validation against the real SDK and the scripted model server: a failing
 * validation command resumes the same session with the errors, and its rounds add up to one run.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/runtime-contract.ts';
import type { ScenarioSpec } from '../../../src/model-server/scenario-schema.ts';
import {
  AGENT_WORKTREE,
  adapterFor,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
  processesWith,
  waitUntil,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

/** Passes once src/greeting.txt says hello; otherwise prints what it says after a marker. */
const CHECK_GREETING =
  'test "$(cat src/greeting.txt)" = hello || { echo "GREETING CHECK: got $(cat src/greeting.txt)"; exit 1; }';

const write = (content: string) => ({
  content: [
    {
      type: 'tool_use' as const,
      name: 'Write',
      input: { file_path: '{{cwd}}/src/greeting.txt', content: `${content}\n` },
    },
  ],
});
const completed = (summary: string) => ({
  structuredOutput: { role: 'implementor', outcome: 'completed', summary },
});

/** Writes `greetings` one per round: the first in the first session, each later one in a resumed round. */
function greetingScenario(greetings: string[]): ScenarioSpec {
  return {
    name: 'validation-rounds',
    onUnmetExpectation: 'reject',
    routes: [
      {
        name: 'implementor',
        match: { firstUserIncludes: '## Work Item #1' },
        steps: greetings.flatMap((greeting, round) => [
          round === 0
            ? write(greeting)
            : {
                ...write(greeting),
                expect: {
                  lastUserIncludes: [
                    'The previous attempt produced validation errors',
                    `GREETING CHECK: got ${greetings[round - 1]}`,
                  ],
                },
              },
          completed(`round ${round + 1}`),
        ]),
      },
    ],
  };
}

describe('Claude adapter: in-session validation', () => {
  it('a failing validation command resumes the same session with the errors; the fixed round passes and its patch is taken', async () => {
    const adapter = await adapterFor(greetingScenario(['helo', 'hello']), {
      transcripts: true,
      validation: { commands: [CHECK_GREETING], maxRounds: 2 },
    });
    const handle = await adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() });
    const texts: string[] = [];
    const reading = (async () => {
      for await (const chunk of handle.output) texts.push(chunk);
    })();
    const result = await handle.result;
    await reading;
    const server = fixture.server!;
    expect(server.report().problems).toEqual([]);
    expect(result).toMatchObject({ role: 'implementor', outcome: 'completed', summary: 'round 2' });
    const patch = result.role === 'implementor' ? (result.patch ?? '') : '';
    expect(patch).toContain('+hello');
    expect(patch).not.toContain('helo');

    // The resumed request carries the whole first round (same session) and then the failure text.
    const steps = server.requests.filter((request) => request.kind === 'step');
    expect(steps.map((request) => request.stepIndex)).toEqual([0, 1, 2, 3]);
    const resumed = JSON.stringify((steps[2]?.body as { messages?: unknown } | undefined)?.messages);
    expect(resumed).toContain('## Work Item #1');
    expect(resumed).toContain('GREETING CHECK: got helo');
    expect(new Set(steps.map((request) => request.headers['x-claude-code-session-id']))).toEqual(
      new Set([steps[0]?.headers['x-claude-code-session-id']]),
    );

    // Both rounds' usage adds up: every step request is billed 100 input and 20 output tokens.
    expect(handle.usage?.()).toMatchObject({
      inputTokens: 100 * steps.length,
      outputTokens: 20 * steps.length,
    });

    // The live stream and the transcript say which command ran and how it ended, round by round.
    const live = texts.join('');
    expect(live).toContain('validation failed: test "$(cat src/greeting.txt)" = hello');
    expect(live).toContain('fix round 1 of 2: resuming the session with the errors');
    expect(live).toContain('validation passed: test "$(cat src/greeting.txt)" = hello');
    const transcript = await readFile(handle.logFilePath!, 'utf8');
    expect(transcript.match(/RESULT success/g)).toHaveLength(2);
    expect(transcript).toContain('FLOTILLA validation failed: ');
    expect(transcript).toMatch(/USER\n {2}The previous attempt produced validation errors/);
    expect(transcript).toContain('FLOTILLA validation passed: ');
    expect(transcript).toContain('Outcome: completed');
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
  }, 120_000);

  it('still red after the last fix round: the run fails with reason validation and the last errors', async () => {
    const adapter = await adapterFor(greetingScenario(['helo', 'hallo']), {
      validation: { commands: ['true', CHECK_GREETING], maxRounds: 1 },
    });
    const handle = await adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() });
    const error = await handle.result.catch((caught: unknown) => caught);
    expect(fixture.server!.report().problems).toEqual([]);
    expect(error).toBeInstanceOf(AgentRunFailure);
    expect((error as AgentRunFailure).reason).toBe('validation');
    const message = (error as AgentRunFailure).message;
    expect(message.split('\n')[0]).toBe(
      `validation still fails after 1 fix round: ${CHECK_GREETING} exited with code 1`,
    );
    expect(message).toContain('GREETING CHECK: got hallo');
    expect(message).not.toContain('got helo');
    const steps = fixture.server!.requests.filter((request) => request.kind === 'step');
    expect(handle.usage?.()).toMatchObject({ inputTokens: 100 * steps.length });
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
  }, 120_000);

  it('cancelling the run during a validation command kills the command and ends the run as cancelled', async () => {
    const marker = `flotilla-validation-${crypto.randomUUID()}`;
    const adapter = await adapterFor(greetingScenario(['hello']), {
      validation: { commands: [`node -e 'setInterval(() => {}, 1000)' ${marker}`], maxRounds: 1 },
    });
    const sessionID = crypto.randomUUID();
    const handle = await adapter.startAgent({ ...implementorParams, sessionID });
    await waitUntil(() => processesWith(marker).length > 0, 60_000, 'the validation command to start');
    adapter.cancelAgent(sessionID);
    const error = await handle.result.catch((caught: unknown) => caught);
    expect((error as AgentRunFailure).reason).toBe('cancelled');
    expect(processesWith(marker)).toEqual([]);
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
  }, 120_000);
});
