import { displayValue } from '../messages.ts';
import type { CommandInspector } from '../types.ts';

/** ripgrep runs programs for `--pre` and `--hostname-bin`. */
export const inspectRipgrep: CommandInspector = (invocation, context) => {
  for (const word of invocation.words.slice(1)) {
    if (word.dynamic) {
      context.report(
        'danger',
        `Blocked: 'rg' argument '${displayValue(word.value)}' is computed at run time`,
      );
      return;
    }
    const option = word.value.split('=')[0]!;
    if (option === '--pre' || option === '--hostname-bin') {
      context.report('danger', `Blocked: 'rg ${option}' runs a program`);
      return;
    }
  }
};
