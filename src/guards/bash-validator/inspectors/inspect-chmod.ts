import { PATTERN } from '../default-bash-validator-rules.ts';
import { displayValue, patternMessage } from '../messages.ts';
import type { CommandInspector } from '../types.ts';

const OCTAL_MODE = /^[0-7]{1,4}$/;
const SYMBOLIC_CLAUSE = /^([ugoa]*)([-+=])([rwxXstugo]*)$/;

/**
 * `chmod` is blocked when recursive (`-R`, `--recursive`) or when any mode makes files writable by others
 * (octal modes with the o+w bit such as 777 or 666; `o+w`, `a+w`, `a=rwx`, `o=u`…), however the mode is
 * quoted. `chmod +x script.sh` stays allowed.
 */
export const inspectChmod: CommandInspector = (invocation, context) => {
  for (const word of invocation.words.slice(1)) {
    const value = word.value;
    if (word.dynamic) {
      context.report(
        'danger',
        `Blocked: 'chmod' with a mode or option computed at run time ('${displayValue(value)}')`,
      );
      return;
    }
    if (word.glob && !value.includes('/')) {
      context.report('danger', `Blocked: 'chmod' argument '${value}' is a glob that could expand to a mode`);
      return;
    }
    if (
      /^-[a-zA-Z]*R[a-zA-Z]*$/.test(value) ||
      (value.startsWith('--rec') && 'recursive'.startsWith(value.slice(2)))
    ) {
      context.report('danger', patternMessage(PATTERN.chmodRecursive));
      return;
    }
    if (OCTAL_MODE.test(value)) {
      if (value === '777') context.report('danger', patternMessage(PATTERN.chmod777));
      else if ((Number.parseInt(value, 8) & 0o002) !== 0) {
        context.report('danger', `Blocked: 'chmod ${value}' makes files writable by everyone`);
      }
      continue;
    }
    for (const clause of value.split(',')) {
      const match = SYMBOLIC_CLAUSE.exec(clause);
      if (!match || match[2] === '-') continue;
      const who = match[1]!;
      const perms = match[3]!;
      const grantsWrite = perms.includes('w') || /[ugo]/.test(perms);
      if (!grantsWrite) continue;
      if (who.includes('a')) context.report('danger', patternMessage(PATTERN.chmodAllWrite));
      else if (who.includes('o')) context.report('danger', patternMessage(PATTERN.chmodOtherWrite));
    }
  }
};
