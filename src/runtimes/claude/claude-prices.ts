/** USD per million tokens. */
export interface ClaudeModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const price = (input: number, output: number): ClaudeModelPrice => ({
  input,
  output,
  cacheRead: input * 0.1,
  cacheWrite: input * 1.25,
});

/**
 * List prices the bundled `claude` CLI (2.1.330) charges per model, measured against the scripted model
 * server (one request of 1M tokens of each kind; the result's `total_cost_usd`), plus Anthropic's published
 * prices for older models. The live usage signal estimates a running session's cost from these; the SDK's
 * own `total_cost_usd` replaces the estimate when the session ends. A model matches the longest key it
 * starts with (`claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`); an unknown model has no price (null
 * cost, never a guess).
 */
export const CLAUDE_MODEL_PRICES: Readonly<Record<string, ClaudeModelPrice>> = {
  'claude-opus-5': price(4, 20),
  'claude-sonnet-5': price(2, 10),
  'claude-haiku-5': price(0.5, 0.5),
  'claude-opus-4-6': price(5, 25),
  'claude-opus-4-5': price(5, 25),
  'claude-opus-4-1': price(15, 75),
  'claude-opus-4': price(15, 75),
  'claude-sonnet-4': price(3, 15),
  'claude-haiku-4-5': price(1, 5),
  'claude-3-7-sonnet': price(3, 15),
  'claude-3-5-haiku': price(0.8, 4),
};

export function findClaudeModelPrice(model: string): ClaudeModelPrice | null {
  let best: string | null = null;
  for (const key of Object.keys(CLAUDE_MODEL_PRICES)) {
    if (model.startsWith(key) && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? null : (CLAUDE_MODEL_PRICES[best] ?? null);
}
