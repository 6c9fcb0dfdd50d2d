import { commandBaseName } from '../command-word.ts';
import { PATTERN } from '../default-bash-validator-rules.ts';
import { displayValue, patternMessage } from '../messages.ts';
import type { CommandInspector, CommandWord, InspectionContext, Invocation } from '../types.ts';

/** Shells whose `-c` script (and static heredoc/here-string script) is parsed and validated. */
export const SHELL_COMMANDS: readonly string[] = ['bash', 'sh', 'dash', 'ash', 'zsh'];

const OPTIONS_WITH_VALUE = new Set(['o', 'O']);
const LONG_FLAGS = new Set([
  '--norc',
  '--noprofile',
  '--login',
  '--posix',
  '--noediting',
  '--restricted',
  '--verbose',
  '--version',
  '--help',
  '--debugger',
  '--pretty-print',
]);
const LONG_FILE_OPTIONS = new Set(['--rcfile', '--init-file']);

/**
 * `bash -c SCRIPT` (and sh, dash, ash, zsh): SCRIPT is parsed and validated recursively. A shell fed a
 * heredoc or here-string with static text is validated the same way. A shell that runs a script file, reads
 * commands from a pipe or inherited stdin, or sources an rc file is blocked: its commands cannot be seen.
 * The shell itself still has to be allowed (none is by default).
 */
export const inspectShell: CommandInspector = (invocation, context) => {
  const name = commandBaseName(invocation.words[0]!.value);
  const args = invocation.words.slice(1);
  const options = readShellOptions(name, args, context);
  if (options === null) return;
  const { index } = options;
  if (options.wantsCommand) {
    const command = args[index] ?? null;
    if (!command) {
      context.report('danger', `Blocked: '${name} -c' without a command`);
      return;
    }
    checkScript(name, command.value, `the '${name} -c' script`, context);
    return;
  }
  if (index < args.length && !options.readsStdin) {
    context.report(
      'danger',
      `Blocked: '${name} ${displayValue(args[index]!.value)}' runs a script file the validator cannot see`,
    );
    return;
  }
  checkStdinScript(name, invocation, context);
};

/**
 * The shell's options: whether it runs a `-c` command or reads stdin (`-s`), and where its operands start;
 * null when an option is refused (reported): computed at run time, a startup file, an unknown long option.
 */
function readShellOptions(
  name: string,
  args: readonly CommandWord[],
  context: InspectionContext,
): { index: number; wantsCommand: boolean; readsStdin: boolean } | null {
  let wantsCommand = false;
  let readsStdin = false;
  let index = 0;
  for (; index < args.length; index += 1) {
    const word = args[index]!;
    const value = word.value;
    if (word.dynamic) {
      context.report(
        'danger',
        `Blocked: '${name}' argument '${displayValue(value)}' is computed at run time`,
      );
      return null;
    }
    if (value === '--' || value === '-') {
      index += 1;
      break;
    }
    if (LONG_FILE_OPTIONS.has(value)) {
      context.report('danger', `Blocked: '${name} ${value}' runs a startup file the validator cannot see`);
      return null;
    }
    if (value.startsWith('--')) {
      if (!LONG_FLAGS.has(value)) {
        context.report('danger', `Blocked: unrecognised '${name}' option '${value}'`);
        return null;
      }
      continue;
    }
    if (!value.startsWith('-') && !value.startsWith('+')) break;
    const letters = value.slice(1);
    wantsCommand ||= letters.includes('c');
    readsStdin ||= letters.includes('s');
    index += [...letters].filter((letter) => OPTIONS_WITH_VALUE.has(letter)).length;
  }
  return { index, wantsCommand, readsStdin };
}

function checkStdinScript(name: string, invocation: Invocation, context: InspectionContext): void {
  const stdin = invocation.stdin;
  if (stdin.kind === 'script' && stdin.text !== null) {
    checkScript(name, stdin.text, `the script fed to '${name}' on standard input`, context);
    return;
  }
  if (stdin.kind === 'pipe') {
    if (stdin.upstream.includes('curl')) context.report('danger', patternMessage(PATTERN.curlPipeShell));
    else if (stdin.upstream.includes('wget')) context.report('danger', patternMessage(PATTERN.wgetPipeShell));
  }
  context.report(
    'danger',
    `Blocked: '${name}' reads its commands from standard input (a pipe, file or computed text), which cannot be checked`,
  );
}

function checkScript(shell: string, script: string, origin: string, context: InspectionContext): void {
  if (script.includes('\u0000')) {
    context.report('danger', `Blocked: ${origin} is computed at run time`);
    return;
  }
  if (shell === 'zsh' && /[^\s'"$<>(|&;=]\(|=\(/.test(script)) {
    // zsh glob qualifiers (`*(e:'cmd':)`) and `=(…)` run commands bash syntax does not show.
    context.report('danger', `Blocked: ${origin} uses zsh-only syntax that the validator cannot check`);
    return;
  }
  context.checkSource(script, origin);
}
