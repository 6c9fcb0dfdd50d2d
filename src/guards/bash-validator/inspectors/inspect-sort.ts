import { displayValue } from '../messages.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector } from '../types.ts';

/** `sort`: `--compress-program` runs a program; `-o`/`--output` must not be a protected path. */
export const inspectSort: CommandInspector = (invocation, context) => {
  const args = invocation.words.slice(1);
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.dynamic) {
      context.report(
        'danger',
        `Blocked: 'sort' argument '${displayValue(word.value)}' is computed at run time`,
      );
      return;
    }
    if (word.value.startsWith('--co') && 'compress-program'.startsWith(word.value.slice(2).split('=')[0]!)) {
      context.report('danger', "Blocked: 'sort --compress-program' runs a program");
      return;
    }
    const output =
      word.value === '-o'
        ? args[i + 1]
        : /^-o./.test(word.value)
          ? { ...word, value: word.value.slice(2) }
          : null;
    const longOutput = word.value.startsWith('--output')
      ? word.value.includes('=')
        ? word
        : args[i + 1]
      : null;
    const target = output ?? longOutput;
    const problem = target ? findProtectedPathInArgument(target, context.place) : null;
    if (problem) {
      context.report('danger', `Blocked: 'sort -o' refused: ${problem}`);
      return;
    }
  }
};
