import { commandBaseName } from '../command-word.ts';
import { displayValue } from '../messages.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector } from '../types.ts';

/** Commands that write file contents to paths named in their arguments. */
export const FILE_WRITER_COMMANDS: readonly string[] = ['cp', 'mv', 'tee', 'install', 'ln', 'rsync'];

/**
 * `cp`, `mv`, `tee`, `install`, `ln`, `rsync`: no argument may name a protected path (`.git/hooks/…`,
 * `~/.gitconfig`, `.npmrc`, …), and arguments computed at run time are refused because they could.
 */
export const inspectFileWriter: CommandInspector = (invocation, context) => {
  const name = commandBaseName(invocation.words[0]!.value);
  for (const word of invocation.words.slice(1)) {
    const problem = findProtectedPathInArgument(word);
    if (problem) {
      context.report('danger', `Blocked: '${name}' refused: ${problem}`);
      return;
    }
  }
};

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
    const problem = target ? findProtectedPathInArgument(target) : null;
    if (problem) {
      context.report('danger', `Blocked: 'sort -o' refused: ${problem}`);
      return;
    }
  }
};

/** `uniq INPUT OUTPUT` writes OUTPUT. */
export const inspectUniq: CommandInspector = (invocation, context) => {
  for (const word of invocation.words.slice(1)) {
    if (word.value.startsWith('-') && !word.dynamic) continue;
    const problem = findProtectedPathInArgument(word);
    if (problem) {
      context.report('danger', `Blocked: 'uniq' refused: ${problem}`);
      return;
    }
  }
};

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
