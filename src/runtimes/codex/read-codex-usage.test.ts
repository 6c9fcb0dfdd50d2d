import { describe, expect, it } from 'vitest';
import { readCodexUsage, subtractCodexUsage } from './read-codex-usage.ts';

const usage = (input: number, cached: number, output: number) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  cache_write_input_tokens: 0,
  output_tokens: output,
  reasoning_output_tokens: 0,
});

describe('readCodexUsage', () => {
  it('prices a listed model, cached input at its own price', () => {
    expect(
      readCodexUsage({ usage: usage(2_000_000, 1_000_000, 500_000), turns: 2, model: 'gpt-5-mini' }),
    ).toEqual({
      costUSD: 0.25 + 0.025 + 1,
      inputTokens: 2_000_000,
      outputTokens: 500_000,
      turns: 2,
    });
  });

  it('reports tokens with a null cost for an unknown or unnamed model, and null without usage', () => {
    expect(readCodexUsage({ usage: usage(10, 0, 5), turns: 1, model: 'scripted' })?.costUSD).toBeNull();
    expect(readCodexUsage({ usage: usage(10, 0, 5), turns: 1, model: undefined })).toEqual({
      costUSD: null,
      inputTokens: 10,
      outputTokens: 5,
      turns: 1,
    });
    expect(readCodexUsage({ usage: null, turns: 0, model: 'gpt-5' })).toBeNull();
  });

  it('does not price a model by a listed prefix', () => {
    expect(readCodexUsage({ usage: usage(10, 0, 5), turns: 1, model: 'gpt-5-turbo-x' })?.costUSD).toBeNull();
  });
});

describe('subtractCodexUsage', () => {
  it("leaves a resumed thread's own turns: the thread total minus what the asking run reported", () => {
    expect(subtractCodexUsage(usage(300, 50, 40), usage(100, 20, 10))).toEqual(usage(200, 30, 30));
    expect(subtractCodexUsage(usage(300, 50, 40), null)).toEqual(usage(300, 50, 40));
  });
});
