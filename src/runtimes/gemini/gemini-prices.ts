/** USD per million tokens of one Gemini model (standard tier, prompts up to 200k tokens). */
export interface GeminiModelPrice {
  input: number;
  output: number;
  /** Tokens read from the context cache. */
  cachedInput: number;
}

/**
 * The Gemini API's list prices for the models gemini-cli uses by default, as Google published them when this
 * table was written (2026-11). A model not listed gets tokens and no cost.
 */
export const GEMINI_PRICES: Readonly<Record<string, GeminiModelPrice>> = {
  'gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.125 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.03 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.01 },
};

/** The cost of one turn's tokens (`input` includes the cached ones, as gemini-cli counts them); null: unknown model. */
export function priceGeminiTokens(
  model: string,
  tokens: { input: number; output: number; cached: number },
  prices: Readonly<Record<string, GeminiModelPrice>> = GEMINI_PRICES,
): number | null {
  const price = prices[model];
  if (price === undefined) return null;
  const fresh = Math.max(0, tokens.input - tokens.cached);
  return (fresh * price.input + tokens.cached * price.cachedInput + tokens.output * price.output) / 1_000_000;
}
