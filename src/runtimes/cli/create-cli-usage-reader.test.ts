import { describe, expect, it } from 'vitest';
import { createCliUsageReader } from './create-cli-usage-reader.ts';

const claudeResult = (cost: number, input: number, output: number, turns: number) =>
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    result: 'done — see the signal file',
    session_id: 'abc',
    total_cost_usd: cost,
    num_turns: turns,
    usage: {
      input_tokens: input,
      cache_creation_input_tokens: 10,
      cache_read_input_tokens: 5,
      output_tokens: output,
    },
  });
const codexTurn = (input: number, output: number) =>
  JSON.stringify({
    type: 'turn.completed',
    usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: output },
  });

describe('createCliUsageReader', () => {
  it("reads claude's result object and sums it over re-prompt rounds", () => {
    const reader = createCliUsageReader('claude-json');
    reader.beginRound(false);
    reader.line('some text the agent printed');
    reader.line(claudeResult(0.25, 100, 40, 3));
    expect(reader.usage()).toEqual({ costUSD: 0.25, inputTokens: 115, outputTokens: 40, turns: 3 });
    reader.beginRound(true);
    reader.line(claudeResult(0.5, 200, 60, 2));
    expect(reader.usage()).toEqual({ costUSD: 0.75, inputTokens: 330, outputTokens: 100, turns: 5 });
  });

  it("takes codex's latest cumulative turn report, superseding a resumed thread's, adding a new one's", () => {
    const reader = createCliUsageReader('codex-jsonl');
    reader.beginRound(false);
    reader.line(JSON.stringify({ type: 'thread.started', thread_id: 't1' }));
    reader.line(codexTurn(100, 10));
    expect(reader.usage()).toEqual({ costUSD: null, inputTokens: 100, outputTokens: 10, turns: 1 });
    reader.beginRound(true);
    expect(reader.usage()).toEqual({ costUSD: null, inputTokens: 100, outputTokens: 10, turns: 1 });
    reader.line(codexTurn(250, 30));
    expect(reader.usage()).toEqual({ costUSD: null, inputTokens: 250, outputTokens: 30, turns: 2 });
    reader.beginRound(false);
    reader.line(codexTurn(50, 5));
    expect(reader.usage()).toEqual({ costUSD: null, inputTokens: 300, outputTokens: 35, turns: 3 });
  });

  it('ignores untrusted output that is not a valid report: negative, fractional or huge numbers, bad JSON', () => {
    const reader = createCliUsageReader('claude-json');
    reader.beginRound(false);
    reader.line('{"type": "result", "total_cost_usd": -1}');
    reader.line('{"type": "result", "num_turns": 1.5}');
    reader.line('{"type": "result", "total_cost_usd": 1e9}');
    reader.line('{"type": "result", "usage": {"input_tokens": "12"}}');
    reader.line('{not json');
    reader.line(codexTurn(1, 1));
    expect(reader.usage()).toBeNull();
  });

  it('is null for presets that report no usage', () => {
    const reader = createCliUsageReader(undefined);
    reader.beginRound(false);
    reader.line(claudeResult(0.25, 100, 40, 3));
    expect(reader.usage()).toBeNull();
  });

  it('claude-stream-json: each request once by message id, priced live; the result replaces the estimate', () => {
    const price = { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 };
    const reader = createCliUsageReader('claude-stream-json', {
      findModelPrice: (model) => (model.startsWith('claude-opus-5') ? price : null),
    });
    const assistant = (id: string, model: string, input: number, output: number, cacheRead = 0) =>
      JSON.stringify({
        type: 'assistant',
        message: {
          id,
          model,
          content: [],
          usage: { input_tokens: input, cache_read_input_tokens: cacheRead, output_tokens: output },
        },
      });
    reader.beginRound(false);
    expect(reader.line(assistant('m1', 'claude-opus-5', 1000, 10))).toEqual({
      model: 'claude-opus-5',
      usage: { costUSD: 0.0042, inputTokens: 1000, outputTokens: 10, turns: 1 },
    });
    // The same request's next content block: nothing new.
    expect(reader.line(assistant('m1', 'claude-opus-5', 1000, 10))).toBeNull();
    expect(reader.line(assistant('m2', 'claude-opus-5', 2000, 0, 1000))?.usage).toEqual({
      costUSD: expect.closeTo(0.0042 + 0.008 + 0.0004, 10),
      inputTokens: 4000,
      outputTokens: 10,
      turns: 2,
    });
    expect(reader.line(claudeResult(0.02, 3000, 40, 2))?.usage).toEqual({
      costUSD: 0.02,
      inputTokens: 3015,
      outputTokens: 40,
      turns: 2,
    });
    // An unknown model has no price: its cost is not guessed (the run's stays the known rounds').
    reader.beginRound(true);
    expect(reader.line(assistant('m3', 'other-model', 10, 1))?.usage).toEqual({
      costUSD: 0.02,
      inputTokens: 3025,
      outputTokens: 41,
      turns: 3,
    });
  });
});
