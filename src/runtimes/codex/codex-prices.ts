/** USD per million tokens. */
export interface CodexModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

/**
 * OpenAI's published API prices (USD per million tokens, standard tier) for the models codex is commonly
 * run with, checked against OpenAI's model pages in November 2026 (older models kept while codex accepts
 * them). A model not listed — a custom provider's, or `scripted` —
 * has no known price: its runs report tokens and a null cost rather than a guess. Keys are exact model names
 * (no prefix matching: `gpt-5-mini` must not be priced as `gpt-5`).
 */
export const CODEX_MODEL_PRICES: Readonly<Record<string, CodexModelPrice>> = {
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-codex': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5.1-codex': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5.1-codex-max': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5.2': { input: 1.75, cachedInput: 0.175, output: 14 },
  'gpt-5.2-codex': { input: 1.75, cachedInput: 0.175, output: 14 },
  'gpt-5.3-codex': { input: 1.75, cachedInput: 0.175, output: 14 },
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15 },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
  'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, output: 1.25 },
  'codex-mini-latest': { input: 1.5, cachedInput: 0.375, output: 6 },
};
