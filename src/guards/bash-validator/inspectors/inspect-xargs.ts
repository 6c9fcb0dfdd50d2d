import { buildDynamicWord, buildStaticWord, DYNAMIC_MARK } from '../command-word.ts';
import { parseCommandOptions } from '../parse-command-options.ts';
import type { CommandInspector, CommandWord } from '../types.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

const XARGS_OPTIONS = {
  short: {
    '0': 'flag',
    a: 'value',
    d: 'value',
    E: 'value',
    e: 'optional',
    I: 'value',
    i: 'optional',
    L: 'value',
    l: 'optional',
    n: 'value',
    o: 'flag',
    P: 'value',
    p: 'flag',
    r: 'flag',
    s: 'value',
    t: 'flag',
    x: 'flag',
  },
  long: {
    null: 'flag',
    'arg-file': 'value',
    delimiter: 'value',
    eof: 'optional',
    replace: 'optional',
    'max-lines': 'optional',
    'max-args': 'value',
    'max-procs': 'value',
    'max-chars': 'value',
    interactive: 'flag',
    'no-run-if-empty': 'flag',
    'open-tty': 'flag',
    verbose: 'flag',
    exit: 'flag',
    'show-limits': 'flag',
    'process-slot-var': 'value',
    help: 'flag',
    version: 'flag',
  },
  permute: false,
} as const;

/**
 * `xargs` runs its command with words read from standard input, which the validator cannot see. The
 * command is validated with the full rules with a run-time word appended (or, with `-I`/`-i`/`--replace`,
 * with every word containing the replacement string treated as run-time), so argument-sensitive commands
 * (`xargs git`, `xargs chmod`, `xargs sed`, `xargs sh -c`) are blocked while `xargs grep -l foo` passes.
 */
export const inspectXargs: CommandInspector = (invocation, context) => {
  const parsed = parseCommandOptions(invocation.words.slice(1), XARGS_OPTIONS);
  if (parsed.error) {
    context.report('danger', `Blocked: cannot tell which command 'xargs' runs (${parsed.error})`);
    return;
  }
  let replacement: string | null = null;
  for (const option of parsed.options) {
    if (option.name === '-I' || option.name === '--replace' || option.name === '-i') {
      replacement = option.value?.value ?? '{}';
      if (replacement.includes(DYNAMIC_MARK) || replacement === '') {
        context.report('danger', "Blocked: the 'xargs' replacement string is computed at run time");
        return;
      }
    }
  }
  const command: CommandWord[] =
    parsed.operands.length > 0 ? [...parsed.operands] : [buildStaticWord('echo')];
  let words: CommandWord[];
  if (replacement === null) {
    words = [...command, buildDynamicWord()];
  } else {
    const marker = replacement;
    words = command.map((word) => (word.value.includes(marker) ? buildDynamicWord() : word));
  }
  runWrappedCommand(invocation, words, context, { stdin: { kind: 'file' } });
};
