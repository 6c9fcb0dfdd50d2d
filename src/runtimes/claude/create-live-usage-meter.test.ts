import { describe, expect, it } from 'vitest';
import { createLiveUsageMeter } from './create-live-usage-meter.ts';

const start = (id: string, model: string, input: number, parent: string | null = null) => ({
  type: 'stream_event',
  parent_tool_use_id: parent,
  event: { type: 'message_start', message: { id, model, usage: { input_tokens: input, output_tokens: 1 } } },
});
const delta = (output: number, parent: string | null = null) => ({
  type: 'stream_event',
  parent_tool_use_id: parent,
  event: { type: 'message_delta', usage: { output_tokens: output } },
});
const assistant = (id: string, model: string, input: number) => ({
  type: 'assistant',
  message: { id, model, usage: { input_tokens: input, output_tokens: 1 } },
});

describe('createLiveUsageMeter', () => {
  it('prices each request once, from its start and its final output count', () => {
    const meter = createLiveUsageMeter();
    expect(meter.observe(start('m1', 'claude-sonnet-4-5-20250929', 1_000_000))?.usage.costUSD).toBeCloseTo(
      3.000015,
    );
    // message_delta's output count replaces the placeholder of message_start.
    expect(meter.observe(delta(100_000))?.usage).toEqual({
      costUSD: 4.5,
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      turns: 1,
    });
    // The assistant message of the same request adds nothing.
    expect(meter.observe(assistant('m1', 'claude-sonnet-4-5-20250929', 1_000_000))).toBeNull();
    expect(meter.observe(start('m2', 'claude-sonnet-4-5', 1_000_000))?.usage.turns).toBe(2);
  });

  it('keeps interleaved subagent streams apart and skips the CLI’s synthetic messages', () => {
    const meter = createLiveUsageMeter();
    meter.observe(start('parent', 'claude-opus-5-5', 100));
    meter.observe(start('child', 'claude-opus-5-5', 200, 'tool-1'));
    meter.observe(delta(10));
    const after = meter.observe(delta(20, 'tool-1'));
    expect(after?.usage).toMatchObject({ inputTokens: 300, outputTokens: 30, turns: 2 });
    expect(meter.observe(assistant('x', '<synthetic>', 0))).toBeNull();
  });

  it('reports a null cost for a model without a known price, never a guess', () => {
    const meter = createLiveUsageMeter();
    expect(meter.observe(start('m1', 'some-gateway-model', 1000))?.usage.costUSD).toBeNull();
  });
});
