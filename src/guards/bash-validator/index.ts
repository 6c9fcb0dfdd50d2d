export {
  type BashValidatorRulesOverrides,
  bashValidatorRulesOverridesSchema,
} from './bash-validator-rules-schema.ts';
export { buildBashValidatorRules, getDefaultBashValidatorRules } from './build-bash-validator-rules.ts';
export {
  type BashValidatorHook,
  type BashValidatorHookOptions,
  createBashValidatorHook,
  type PreToolUseHookInput,
  type PreToolUseHookOutput,
} from './create-bash-validator-hook.ts';
export { DEFAULT_ALLOWED_COMMANDS, PUBLISHED_BLOCK_PATTERNS } from './default-bash-validator-rules.ts';
export {
  type BashValidatorRulesDescription,
  describeBashValidatorRules,
  STRUCTURAL_RULES,
} from './describe-bash-validator-rules.ts';
export type { BashPathPlace } from './judge-real-path.ts';
export { toReadOnlyBashValidatorRules } from './to-read-only-bash-validator-rules.ts';
export type { BashBlockPattern, BashValidationResult, BashValidatorRules } from './types.ts';
export { type BashPlaceInput, validateBashCommand } from './validate-bash-command.ts';
