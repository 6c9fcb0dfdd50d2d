import { buildDynamicWord } from '../command-word.ts';
import { displayValue } from '../messages.ts';
import type { CommandInspector, CommandWord } from '../types.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const WRITE_ACTIONS = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

/**
 * `find` is allowed, but `-delete` and the file-writing actions are blocked, and every `-exec`, `-execdir`,
 * `-ok` and `-okdir` command is validated with the full rules (`{}` counts as a run-time value).
 */
export const inspectFind: CommandInspector = (invocation, context) => {
  const args = invocation.words.slice(1);
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.dynamic) {
      context.report(
        'danger',
        `Blocked: 'find' argument '${displayValue(word.value)}' is computed at run time and could be an action`,
      );
      return;
    }
    if (word.value === '-delete') {
      context.report('danger', "Blocked: 'find -delete' deletes files");
      return;
    }
    if (WRITE_ACTIONS.has(word.value)) {
      context.report('danger', `Blocked: 'find ${word.value}' writes files`);
      return;
    }
    if (!EXEC_ACTIONS.has(word.value)) continue;
    const command: CommandWord[] = [];
    let j = i + 1;
    for (; j < args.length; j += 1) {
      const value = args[j]!.value;
      if (value === ';' || value === '+') break;
      command.push(value.includes('{}') ? buildDynamicWord() : args[j]!);
    }
    if (j >= args.length) {
      context.report('danger', `Blocked: 'find ${word.value}' is not terminated by ';' or '+'`);
      return;
    }
    if (command.length === 0) {
      context.report('danger', `Blocked: 'find ${word.value}' has no command`);
      return;
    }
    runWrappedCommand(invocation, command, context, { stdin: { kind: 'inherit' } });
    i = j;
  }
};
