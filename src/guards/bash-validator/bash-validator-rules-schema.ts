import { z } from 'zod';

/** A JavaScript regular expression source that compiles (no flags; matching is case-sensitive). */
const regexSource = z
  .string()
  .min(1)
  .refine(
    (source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a valid regular expression' },
  );

/** Config shape for the bash validator (the `bashValidator` section of the Flotilla config). */
export const bashValidatorRulesOverridesSchema = z
  .object({
    /** Command names allowed in addition to the defaults (exact first-word match, e.g. `cat`, `make`). */
    extraAllowedCommands: z
      .array(z.string().min(1).regex(/^\S+$/, 'a command name has no spaces'))
      .default([]),
    /** Regexes that block in addition to the published blocklist. */
    extraBlockPatterns: z.array(regexSource).default([]),
  })
  .strict();

export type BashValidatorRulesOverrides = z.input<typeof bashValidatorRulesOverridesSchema>;
