import type { CommandInspector } from '../types.ts';

const TEST_OPERATORS = new Set([
  '-a',
  '-b',
  '-c',
  '-d',
  '-e',
  '-f',
  '-g',
  '-h',
  '-k',
  '-n',
  '-p',
  '-r',
  '-s',
  '-t',
  '-u',
  '-w',
  '-x',
  '-z',
  '-G',
  '-L',
  '-N',
  '-O',
  '-S',
  '=',
  '==',
  '!=',
  '<',
  '>',
  '-eq',
  '-ne',
  '-lt',
  '-le',
  '-gt',
  '-ge',
  '-nt',
  '-ot',
  '-ef',
  '-o',
  '!',
  '(',
  ')',
]);

/**
 * `test -v NAME` / `[ -v NAME ]`: a subscripted or computed NAME is evaluated and can run commands. A
 * run-time argument is only accepted where it cannot be an operator: right after an operator, right before
 * a binary operator, or alone.
 */
export const inspectTest: CommandInspector = (invocation, context) => {
  const args = invocation.words.slice(1);
  if (invocation.words[0]!.value.endsWith('[') && args.at(-1)?.value === ']') args.pop();
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.value === '-v' && !word.dynamic) {
      const target = args[i + 1];
      if (target && (target.dynamic || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(target.value))) {
        context.report('danger', "Blocked: 'test -v' with a computed or subscripted name can run commands");
        return;
      }
    }
    if (!word.dynamic || args.length === 1) continue;
    const previous = args[i - 1];
    const next = args[i + 1];
    const afterOperator = previous !== undefined && !previous.dynamic && TEST_OPERATORS.has(previous.value);
    const beforeOperator = next !== undefined && !next.dynamic && TEST_OPERATORS.has(next.value);
    if (!afterOperator && !beforeOperator) {
      context.report(
        'danger',
        "Blocked: a 'test' argument computed at run time could be an operator such as -v",
      );
      return;
    }
  }
};
