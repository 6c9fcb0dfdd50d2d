/**
 * The per-run CLAUDE_CONFIG_DIR starts with the first-start state an earlier run ended with (issue 13's
 * overhead), on the real SDK: without it the CLI stamps the run's own start as its first ever and runs its
 * config migrations again. A run that asks questions keeps its state dir, which lets the test read what the
 * CLI found there.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAgentQuestions } from '../../../src/domain/index.ts';
import type { AgentStartParams, RuntimeAdapter } from '../../../src/engine/runtime-contract/index.ts';
import { createModelServer } from '../../../src/model-server/index.ts';
import {
  createBareClaudeAdapter,
  fixture,
  installClaudeAdapterFixture,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

const params = (prompt: string): AgentStartParams => ({
  role: 'implementor',
  sessionID: crypto.randomUUID(),
  prompt,
  workItemID: '1',
  branchName: 'flotilla/1',
});

/** Runs a session that asks; returns the first-start time its kept config dir holds, then discards it. */
async function firstStartTimeOfAskingRun(adapter: RuntimeAdapter): Promise<number> {
  const asked = await (await adapter.startAgent(params('ASK'))).result;
  if (!isAgentQuestions(asked)) throw new Error(`expected questions, got ${JSON.stringify(asked)}`);
  const stateDir = asked.session.stateDir;
  if (stateDir === null) throw new Error('the asking run kept no state dir');
  const state = JSON.parse(await readFile(join(stateDir, 'config', '.claude.json'), 'utf8'));
  await adapter.discardSession?.(asked.session);
  return Date.parse(state.firstStartTime);
}

describe('Claude adapter: the config dir seed', () => {
  it("a run after a finished one starts from that run's first-start state, not a first start", async () => {
    fixture.server = await createModelServer({
      name: 'config-seed',
      routes: [
        {
          name: 'finish',
          match: { firstUserIncludes: 'FINISH' },
          steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'No.' } }],
        },
        {
          name: 'ask',
          match: { firstUserIncludes: 'ASK' },
          steps: [{ structuredOutput: { role: 'implementor', outcome: 'questions', questions: ['Which?'] } }],
        },
      ],
    });
    const adapter = createBareClaudeAdapter({
      extraEnv: { ANTHROPIC_BASE_URL: fixture.server.url, ANTHROPIC_API_KEY: 'test-key' },
    });

    // The adapter's first run has nothing to start from: the CLI records this start as its first.
    const beforeFirst = Date.now();
    expect(await firstStartTimeOfAskingRun(adapter)).toBeGreaterThanOrEqual(beforeFirst);

    const finished = await (await adapter.startAgent(params('FINISH'))).result;
    expect(finished).toMatchObject({ outcome: 'blocked' });

    // The next run's CLI finds the finished run's first start: it is not a first start again.
    const beforeSeeded = Date.now();
    expect(await firstStartTimeOfAskingRun(adapter)).toBeLessThan(beforeSeeded);
  });
});
