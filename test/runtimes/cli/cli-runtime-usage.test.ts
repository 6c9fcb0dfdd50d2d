import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveUsageReport } from '../../../src/engine/runtime-contract/index.ts';
import { findClaudeModelPrice } from '../../../src/runtimes/claude/claude-prices.ts';
import {
  APPROVED,
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  reviewerParams,
} from '../../support/cli-runtime-fixture.ts';

// Each run starts node with tsx for the fake agent: slow under a loaded CPU, so generous limits.
vi.setConfig({ testTimeout: 60_000 });

/** claude-opus-5: $4 per million input tokens, $20 per million output. */
const request = (inputTokens: number, outputTokens: number) => ({
  request: {
    model: 'claude-opus-5-20260101',
    inputTokens,
    outputTokens,
    costUSD: (inputTokens * 4 + outputTokens * 20) / 1_000_000,
  },
});

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

  it('claude preset: live usage after every request, priced, while the agent still runs; the result settles it', async () => {
    const gate = join(fixture.dir, 'gate');
    const runtime = await fixture.runtimeFor(
      [
        {
          steps: [
            request(10_000, 100),
            // The agent goes on only once the test has seen the first report: it must come mid-run.
            { waitForFile: gate },
            request(20_000, 200),
            { signal: APPROVED },
          ],
        },
      ],
      { findModelPrice: findClaudeModelPrice },
    );
    const handle = await runtime.startAgent(reviewerParams());
    const reports: LiveUsageReport[] = [];
    handle.onUsage?.((report) => {
      reports.push(report);
      if (!existsSync(gate)) void writeFile(gate, 'open\n');
    });
    await handle.result;
    expect(fixture.calls()[0]?.argv.slice(0, 4)).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
    expect(reports).toEqual([
      {
        model: 'claude-opus-5-20260101',
        usage: { costUSD: 0.042, inputTokens: 10_000, outputTokens: 100, turns: 1 },
      },
      {
        model: 'claude-opus-5-20260101',
        usage: { costUSD: expect.closeTo(0.126, 10), inputTokens: 30_000, outputTokens: 300, turns: 2 },
      },
    ]);
    // The result object's own figures (the same here) settle the run's usage.
    expect(handle.usage?.()).toEqual({
      costUSD: expect.closeTo(0.126, 10),
      inputTokens: 30_000,
      outputTokens: 300,
      turns: 2,
    });
  });

  it('codex preset: one live report per turn, when `codex exec --json` completes it (tokens, no cost)', async () => {
    const runtime = await fixture.runtimeFor(
      [{ steps: [request(1_000, 10), request(2_000, 20), { signal: APPROVED }] }],
      { preset: 'codex' },
    );
    const handle = await runtime.startAgent(reviewerParams());
    const reports: LiveUsageReport[] = [];
    handle.onUsage?.((report) => reports.push(report));
    await handle.result;
    expect(reports).toEqual([
      { model: null, usage: { costUSD: null, inputTokens: 3_000, outputTokens: 30, turns: 1 } },
    ]);
  });

  it('a preset whose tool reports no usage (aider) sends no live usage (declared capability)', async () => {
    const runtime = await fixture.runtimeFor([{ steps: [request(1_000, 10), { signal: APPROVED }] }], {
      preset: 'aider',
    });
    const handle = await runtime.startAgent(reviewerParams());
    const reports: LiveUsageReport[] = [];
    handle.onUsage?.((report) => reports.push(report));
    await handle.result;
    expect(reports).toEqual([]);
    expect(handle.usage?.()).toBeNull();
  });
});
