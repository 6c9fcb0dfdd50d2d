import {
  type BashValidatorRulesOverrides,
  bashValidatorRulesOverridesSchema,
} from './bash-validator-rules-schema.ts';
import { DEFAULT_ALLOWED_COMMANDS, PUBLISHED_BLOCK_PATTERNS } from './default-bash-validator-rules.ts';
import type { BashValidatorRules } from './types.ts';

/**
 * Builds the effective rules: defaults plus configured extras. Pure; throws a ZodError on invalid
 * overrides (config loading time), never at validation time.
 */
export function buildBashValidatorRules(overrides: BashValidatorRulesOverrides = {}): BashValidatorRules {
  const parsed = bashValidatorRulesOverridesSchema.parse(overrides);
  const allowedCommands = new Set([...DEFAULT_ALLOWED_COMMANDS, ...parsed.extraAllowedCommands]);
  const sources = [...PUBLISHED_BLOCK_PATTERNS];
  for (const source of parsed.extraBlockPatterns) if (!sources.includes(source)) sources.push(source);
  return {
    allowedCommands,
    blockPatterns: sources.map((source) => ({ source, regex: new RegExp(source) })),
  };
}

let defaults: BashValidatorRules | undefined;

/** The default rules, built once. */
export function getDefaultBashValidatorRules(): BashValidatorRules {
  defaults ??= buildBashValidatorRules();
  return defaults;
}
