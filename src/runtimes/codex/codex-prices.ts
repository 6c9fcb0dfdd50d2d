/** USD per million tokens. */
export interface CodexModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

/**
 * OpenAI's published API prices (USD per million tokens, standard tier) for the models codex is commonly
 * run with, as of late 2025. A model not listed — a custom provider's, the scripted server's `scripted` —
 * has no known price: its runs report tokens and a null cost rather than a guess. Keys are exact model names
 * (no prefix matching: `gpt-5-mini` must not be priced as `gpt-5`).
 */
export const CODEX_MODEL_PRICES: Readonly<Record<string, CodexModelPrice>> = {
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-codex': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'codex-mini-latest': { input: 1.5, cachedInput: 0.375, output: 6 },
};
