/**
 * Live usage from the Codex runtime (real codex binary, scripted Responses endpoint on 127.0.0.1): the SDK's
 * stream reports usage only when a turn completes, so the runtime follows the thread's rollout file, where
 * codex records the thread's tokens after every model response. The agent's first command waits until the
 * test has received the first live report: the report must arrive while the turn is still running.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewerResult } from '../../../src/domain/index.ts';
import type { LiveUsageReport } from '../../../src/engine/runtime-contract/index.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../../src/model-server/index.ts';
import { CODEX_MODEL_PRICES } from '../../../src/runtimes/codex/codex-prices.ts';
import { createCodexRuntime } from '../../../src/runtimes/codex/create-codex-runtime.ts';
import { createTempGitRepo, type TempGitRepo } from '../../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

const SCRIPTED_KEY = 'FLOTILLA_SCRIPTED_API_KEY';
/** gpt-5: $1.25 per million input tokens, $10 per million output. */
const PRICE = CODEX_MODEL_PRICES['gpt-5'];

let repo: TempGitRepo | undefined;
let server: ModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await repo?.cleanup();
  repo = undefined;
});

const waitForGate = (gate: string) =>
  `for i in $(seq 1 300); do [ -f ${gate} ] && break; sleep 0.05; done; [ -f ${gate} ] && echo gate-open`;

describe('codex runtime live usage (real codex binary)', () => {
  it('reports the thread’s usage after every model response, priced, before the turn completes', async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', { 'README.md': '# scratch\n' });
    const gate = join(repo.root, 'gate');
    server = await createModelServer({
      routes: [
        {
          name: 'reviewer',
          steps: [
            {
              content: [{ type: 'tool_use', name: 'exec_command', input: { cmd: waitForGate(gate) } }],
              usage: { input_tokens: 32_000, output_tokens: 100 },
            },
            {
              expect: { toolResultsInclude: 'gate-open' },
              content: [{ type: 'tool_use', name: 'exec_command', input: { cmd: 'echo two' } }],
              usage: { input_tokens: 40_000, output_tokens: 100, cache_read_input_tokens: 8_000 },
            },
            {
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'approve', summary: 'Fine.', comments: [] },
              },
              usage: { input_tokens: 48_000, output_tokens: 50 },
            },
          ],
        },
      ],
    });
    const runtime = createCodexRuntime({
      sandbox: createTestSandbox(),
      repoRoot: repo.root,
      defaultBranch: 'main',
      logger: createRecordingLogger(),
      stateDir: join(repo.root, '.flotilla', 'codex'),
      model: 'gpt-5',
      provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: SCRIPTED_KEY },
      baseEnv: { ...process.env, [SCRIPTED_KEY]: 'dummy' },
      maxAgentDuration: 120,
      logging: { agentSessions: false, logsDir: join(repo.root, '.flotilla', 'logs') },
    });
    const handle = await runtime.startAgent({
      role: 'reviewer',
      sessionID: 'rev-live',
      workItemID: '1',
      revisionID: '1',
      prompt: '## Revision #1\n\nReview it.',
    });
    const reports: { report: LiveUsageReport; requestsAnswered: number }[] = [];
    expect(handle.onUsage).toBeDefined();
    handle.onUsage?.((report) => {
      reports.push({ report, requestsAnswered: server?.requests.length ?? 0 });
      // The first command ends once the first report is here: a report only at the turn's end never opens it.
      if (!existsSync(gate)) void writeFile(gate, 'open\n');
    });
    for await (const _ of handle.output) {
      // drained
    }
    const result = (await handle.result) as ReviewerResult;
    expect(result.review.verdict).toBe('approve');
    expect(server.report().problems).toEqual([]);

    const cost = (input: number, cached: number, output: number) =>
      ((input - cached) * PRICE!.input + cached * PRICE!.cachedInput + output * PRICE!.output) / 1_000_000;
    // One report per model response, each the thread's total so far (the last one may come from the rollout
    // or from turn.completed, whichever is read first: same figures).
    expect(reports.map(({ report }) => report.usage.inputTokens)).toEqual([32_000, 72_000, 120_000]);
    expect(reports[0]?.requestsAnswered).toBe(1);
    expect(reports[0]?.report).toEqual({
      model: 'gpt-5',
      usage: { costUSD: cost(32_000, 0, 100), inputTokens: 32_000, outputTokens: 100, turns: 1 },
    });
    expect(reports[2]?.report.usage.costUSD).toBeCloseTo(cost(120_000, 8_000, 250), 10);
    expect(handle.usage?.()).toEqual({
      costUSD: reports[2]?.report.usage.costUSD,
      inputTokens: 120_000,
      outputTokens: 250,
      turns: 1,
    });
  }, 120_000);
});
