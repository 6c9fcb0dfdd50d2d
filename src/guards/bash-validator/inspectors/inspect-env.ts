import { displayValue } from '../messages.ts';
import { parseCommandOptions } from '../parse-command-options.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector } from '../types.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

const ENV_OPTIONS = {
  short: { i: 'flag', '0': 'flag', u: 'value', C: 'value', S: 'value', v: 'flag', P: 'value' },
  long: {
    'ignore-environment': 'flag',
    null: 'flag',
    unset: 'value',
    chdir: 'value',
    'split-string': 'value',
    debug: 'flag',
    'block-signal': 'optional',
    'default-signal': 'optional',
    'ignore-signal': 'optional',
    'list-signal-handling': 'flag',
    help: 'flag',
    version: 'flag',
  },
  permute: false,
} as const;

/**
 * `env [options] [NAME=VALUE]... [command [args]]`: assignments are checked against the dangerous-variable
 * list and the command is validated with the full rules. `-S`/`--split-string` (its own word splitting)
 * and `-P` (a search path for the command) are blocked.
 */
export const inspectEnv: CommandInspector = (invocation, context) => {
  const parsed = parseCommandOptions(invocation.words.slice(1), ENV_OPTIONS);
  if (parsed.error) {
    context.report('danger', `Blocked: cannot tell which command 'env' runs (${parsed.error})`);
    return;
  }
  for (const option of parsed.options) {
    if (option.name === '-S' || option.name === '--split-string' || option.name === '-P') {
      context.report('danger', `Blocked: 'env ${option.name}' changes how the command is found or split`);
      return;
    }
    if ((option.name === '-C' || option.name === '--chdir') && option.value) {
      const problem = findProtectedPathInArgument(option.value, context.place);
      if (problem) {
        context.report('danger', `Blocked: 'env ${option.name}' refused: ${problem}`);
        return;
      }
    }
  }
  const operands = parsed.operands;
  const assignedNames: string[] = [];
  let index = 0;
  for (; index < operands.length; index += 1) {
    const word = operands[index]!;
    const match = /^([^=]+)=/.exec(word.value);
    if (!match) break;
    if (match[1]!.includes('\u0000')) {
      context.report('danger', `Blocked: 'env' assigns a variable whose name is computed at run time`);
      return;
    }
    assignedNames.push(match[1]!);
  }
  const command = operands.slice(index);
  if (command.length === 0) {
    for (const name of assignedNames) {
      if (name.length === 0)
        context.report('danger', `Blocked: invalid 'env' assignment '${displayValue(name)}'`);
    }
    return;
  }
  runWrappedCommand(invocation, command, context, { assignedNames });
};
