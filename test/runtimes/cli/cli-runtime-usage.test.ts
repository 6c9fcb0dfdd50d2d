import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APPROVED,
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  reviewerParams,
} from '../../support/cli-runtime-fixture.ts';

// Each run starts node with tsx for the fake agent: slow under a loaded CPU, so generous limits.
vi.setConfig({ testTimeout: 60_000 });

/** What `claude -p --output-format json` prints last. */
const claudeResult = (cost: number, input: number, output: number, turns: number) =>
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'Wrote the signal file.',
    session_id: 'ignored',
    total_cost_usd: cost,
    num_turns: turns,
    usage: { input_tokens: input, cache_read_input_tokens: 0, output_tokens: output },
  });

describe('CLI runtime usage, from what the agent CLI reports', () => {
  let fixture: CliRuntimeFixture;
  beforeEach(async () => {
    fixture = await createCliRuntimeFixture();
  });
  afterEach(async () => fixture.cleanup());

  it('claude preset: the result objects of both rounds (a re-prompt) are summed into the run usage', async () => {
    const runtime = await fixture.runtimeFor([
      { steps: [{ print: claudeResult(0.02, 1200, 300, 2) }] },
      { steps: [{ print: claudeResult(0.01, 800, 100, 1) }, { signal: APPROVED }] },
    ]);
    const handle = await runtime.startAgent(reviewerParams());
    await handle.result;
    expect(handle.usage?.()).toEqual({ costUSD: 0.03, inputTokens: 2000, outputTokens: 400, turns: 3 });
  });

  it('a preset without a usage format (aider) reports unknown usage, whatever the agent prints', async () => {
    const runtime = await fixture.runtimeFor(
      [{ steps: [{ print: claudeResult(5, 1, 1, 1) }, { signal: APPROVED }] }],
      { preset: 'aider' },
    );
    const handle = await runtime.startAgent(reviewerParams());
    await handle.result;
    expect(handle.usage?.()).toBeNull();
  });
});
