import { DEFAULT_ALLOWED_COMMANDS, PUBLISHED_BLOCK_PATTERNS } from './default-bash-validator-rules.ts';
import type { BashValidatorRules } from './types.ts';

let defaults: BashValidatorRules | undefined;

/**
 * The default rules, built once. Kept apart from buildBashValidatorRules (which validates overrides with zod)
 * so that validating a command — `flotilla hook pre-tool-use` on every Bash call — does not load zod.
 */
export function getDefaultBashValidatorRules(): BashValidatorRules {
  defaults ??= assembleBashValidatorRules([], []);
  return defaults;
}

/** Defaults plus already-validated extras; duplicate patterns are kept once. */
export function assembleBashValidatorRules(
  extraAllowedCommands: readonly string[],
  extraBlockPatterns: readonly string[],
): BashValidatorRules {
  const allowedCommands = new Set([...DEFAULT_ALLOWED_COMMANDS, ...extraAllowedCommands]);
  const sources = [...PUBLISHED_BLOCK_PATTERNS];
  for (const source of extraBlockPatterns) if (!sources.includes(source)) sources.push(source);
  return {
    allowedCommands,
    blockPatterns: sources.map((source) => ({ source, regex: new RegExp(source) })),
  };
}
