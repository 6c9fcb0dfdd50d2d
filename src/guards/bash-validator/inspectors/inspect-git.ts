import { displayValue } from '../messages.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector, CommandWord, InspectionContext } from '../types.ts';
import { checkConfigSetting } from './check-git-config.ts';
import { checkProgramAndOutputOptions } from './check-git-program-options.ts';
import { checkSubcommand } from './check-git-subcommand.ts';

/** Global options that take the next word as their value. */
const GLOBAL_OPTIONS_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--list-cmds',
  '--attr-source',
]);

const GLOBAL_FLAGS = new Set([
  '-p',
  '-P',
  '--paginate',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
  '--version',
  '-v',
  '--help',
  '-h',
  '--html-path',
  '--man-path',
  '--info-path',
  '--exec-path',
]);

/** Subcommands whose arguments cannot turn them dangerous, so run-time values (`"$msg"`) are fine. */
const DYNAMIC_SAFE_SUBCOMMANDS = new Set([
  'add',
  'commit',
  'status',
  'rev-parse',
  'ls-files',
  'check-ignore',
  'blame',
  'merge-base',
  'cat-file',
  'show-ref',
]);

/**
 * `git`: its global options (`-c` settings and `-C`/`--work-tree` paths checked), then its subcommand —
 * forbidden, unknown, discarding work or running programs — and the options that run programs or write
 * where agents may not. Run-time values are refused except where they cannot make a subcommand dangerous.
 */
export const inspectGit: CommandInspector = (invocation, context) => {
  const words = invocation.words;
  const i = readGlobalOptions(words, context);
  if (i === null) return;
  const subcommandWord = words[i];
  if (!subcommandWord) return;
  if (subcommandWord.glob) {
    context.report('danger', `Blocked: the git subcommand '${subcommandWord.value}' is a glob pattern`);
    return;
  }
  const subcommand = subcommandWord.value;
  const args = words.slice(i + 1);
  if (args.some((word) => word.dynamic) && !DYNAMIC_SAFE_SUBCOMMANDS.has(subcommand)) {
    context.report(
      'danger',
      `Blocked: 'git ${displayValue(subcommand)}' has arguments computed at run time, which could turn it dangerous`,
    );
    return;
  }
  checkSubcommand(subcommand, args, invocation, context);
  checkProgramAndOutputOptions(subcommand, args, context);
};

/**
 * Checks git's global options; the index of the subcommand's word after them, or null when one was
 * refused (reported) or a value is missing (nothing left to check).
 */
function readGlobalOptions(words: readonly CommandWord[], context: InspectionContext): number | null {
  let i: number | null = 1;
  while (i !== null && i < words.length && (words[i]!.value.startsWith('-') || words[i]!.dynamic)) {
    i = checkGlobalOption(words, i, context);
  }
  return i;
}

/** Checks the global option at `i` (and its value); the index after it, or null as readGlobalOptions says. */
function checkGlobalOption(
  words: readonly CommandWord[],
  i: number,
  context: InspectionContext,
): number | null {
  const word = words[i]!;
  if (word.dynamic) {
    context.report('danger', 'Blocked: a git global option is computed at run time');
    return null;
  }
  const equals = word.value.indexOf('=');
  const name = word.value.startsWith('--') && equals !== -1 ? word.value.slice(0, equals) : word.value;
  const inlineValue = name !== word.value ? { ...word, value: word.value.slice(equals + 1) } : null;
  if (name === '--exec-path' && inlineValue) {
    context.report('danger', "Blocked: 'git --exec-path=…' makes git run programs from another directory");
    return null;
  }
  if (GLOBAL_FLAGS.has(name) && !inlineValue) return i + 1;
  if (!GLOBAL_OPTIONS_WITH_VALUE.has(name)) {
    context.report('danger', `Blocked: unrecognised git global option '${displayValue(word.value)}'`);
    return null;
  }
  const value = inlineValue ?? words[i + 1];
  if (!value) return null;
  if (name === '-c' || name === '--config-env') {
    checkConfigSetting(value, `git ${name}`, context);
  } else if (name === '-C' || name === '--work-tree') {
    const problem = findProtectedPathInArgument(value, context.place);
    if (problem) context.report('danger', `Blocked: git ${name} refused: ${problem}`);
  }
  return i + (inlineValue ? 1 : 2);
}
