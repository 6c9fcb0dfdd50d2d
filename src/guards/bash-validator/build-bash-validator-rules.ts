import {
  type BashValidatorRulesOverrides,
  bashValidatorRulesOverridesSchema,
} from './bash-validator-rules-schema.ts';
import { assembleBashValidatorRules } from './get-default-bash-validator-rules.ts';
import type { BashValidatorRules } from './types.ts';

export { getDefaultBashValidatorRules } from './get-default-bash-validator-rules.ts';

/**
 * Builds the effective rules: defaults plus configured extras. Pure; throws a ZodError on invalid
 * overrides (config loading time), never at validation time.
 */
export function buildBashValidatorRules(overrides: BashValidatorRulesOverrides = {}): BashValidatorRules {
  const parsed = bashValidatorRulesOverridesSchema.parse(overrides);
  return assembleBashValidatorRules(parsed.extraAllowedCommands, parsed.extraBlockPatterns);
}
