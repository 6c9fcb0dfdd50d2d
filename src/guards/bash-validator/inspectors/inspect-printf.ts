import type { CommandInspector } from '../types.ts';

/**
 * `printf -v NAME`: a subscripted or computed NAME is evaluated as arithmetic, which can run commands.
 * A run-time first argument could itself be `-vNAME`, so it is refused too (use `printf -- "$fmt"`).
 */
export const inspectPrintf: CommandInspector = (invocation, context) => {
  const args = invocation.words.slice(1);
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    const value = word.value;
    if (word.dynamic) {
      context.report(
        'danger',
        "Blocked: a 'printf' option or format computed at run time could be '-v a[$(…)]'",
      );
      return;
    }
    if (value === '--' || !value.startsWith('-')) return;
    const target =
      value === '-v' ? args[i + 1] : value.startsWith('-v') ? { ...word, value: value.slice(2) } : null;
    if (target && (target.dynamic || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(target.value))) {
      context.report('danger', "Blocked: 'printf -v' with a computed or subscripted name can run commands");
      return;
    }
    if (value === '-v') i += 1;
  }
};
