import type { BashValidatorRules } from './types.ts';

/** The same rules, for a session that may not write (modes `investigate` and `refine`; inspect-read-only.ts). */
export function toReadOnlyBashValidatorRules(rules: BashValidatorRules): BashValidatorRules {
  return { ...rules, readOnly: true };
}
