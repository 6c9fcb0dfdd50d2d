import { commandBaseName } from '../command-word.ts';
import { PROTECTED_FILE_NAMES, PROTECTED_PATH_SEGMENTS } from '../protected-paths.ts';
import type { CommandInspector, CommandWord, InspectionContext } from '../types.ts';

export const AWK_COMMANDS: readonly string[] = ['awk', 'gawk', 'mawk', 'nawk'];

const VALUE_OPTIONS = new Set(['-F', '-v', '--field-separator', '--assign']);
const PROGRAM_OPTIONS = new Set(['-e', '--source']);
const FLAG_OPTIONS = new Set([
  '-b',
  '-c',
  '-C',
  '-g',
  '-h',
  '-M',
  '-n',
  '-N',
  '-O',
  '-P',
  '-r',
  '-s',
  '-S',
  '-t',
  '-V',
  '--posix',
  '--traditional',
  '--sandbox',
  '--characters-as-bytes',
  '--re-interval',
  '--use-lc-numeric',
  '--bignum',
  '--optimize',
  '--no-optimize',
  '--version',
  '--help',
]);

/** Characters after which a `/` starts a regular expression rather than a division. */
const REGEX_CONTEXT = new Set(['', '(', ',', '{', '}', ';', '~', '!', '&', '|', '=', '?', ':', '\n']);

/**
 * awk is allowed, but a program that calls `system(…)`, pipes to or from a command (`print | "cmd"`,
 * `"cmd" | getline`, `|&`), uses gawk's `@` indirect calls and directives, or names a protected path is
 * blocked, as are program files (`-f`), extensions (`-l`, `-i`, `-E`) and file-writing options.
 * String and regex literals are skipped, so `awk '/error|warn/'` passes.
 */
export const inspectAwk: CommandInspector = (invocation, context) => {
  const name = commandBaseName(invocation.words[0]!.value);
  const args = invocation.words.slice(1);
  const options = readAwkOptions(name, args, context);
  if (options === null) return;
  const { programs } = options;
  if (programs.length === 0) {
    const program = args[options.operandsAt];
    if (!program) return;
    programs.push(program);
  }
  for (const program of programs) {
    if (program.dynamic) {
      context.report('danger', `Blocked: the ${name} program is computed at run time`);
      return;
    }
    const problem = findAwkProblem(program.value);
    if (problem) {
      context.report('danger', `Blocked: the ${name} program ${problem}`);
      return;
    }
  }
};

/**
 * awk's options: the programs given with `-e`/`--source`, and where the operands start; null when an option
 * is refused (reported).
 */
function readAwkOptions(
  name: string,
  args: readonly CommandWord[],
  context: InspectionContext,
): { programs: CommandWord[]; operandsAt: number } | null {
  const programs: CommandWord[] = [];
  let index = 0;
  for (; index < args.length; index += 1) {
    const word = args[index]!;
    const value = word.value;
    if (word.dynamic && value.startsWith('\u0000')) break;
    if (value === '--') {
      index += 1;
      break;
    }
    if (!value.startsWith('-') || value === '-') break;
    const { option, attached } = splitOption(value);
    if (VALUE_OPTIONS.has(option) || PROGRAM_OPTIONS.has(option)) {
      const program = attached ? attachedValue(word, option) : args[index + 1];
      if (!attached) index += 1;
      if (program && PROGRAM_OPTIONS.has(option)) programs.push(program);
      continue;
    }
    if (FLAG_OPTIONS.has(value)) continue;
    context.report(
      'danger',
      `Blocked: '${name} ${option}' is not allowed (program files, extensions, file output)`,
    );
    return null;
  }
  return { programs, operandsAt: index };
}

/** `--source=x` → `--source`, attached; `-ex` → `-e`, attached; `-e` → `-e`, not attached. */
function splitOption(value: string): { option: string; attached: boolean } {
  return value.startsWith('--')
    ? { option: value.split('=')[0]!, attached: value.includes('=') }
    : { option: value.slice(0, 2), attached: value.length > 2 };
}

/** The value written in the option's own word (`--source=…`, `-e…`). */
function attachedValue(word: CommandWord, option: string): CommandWord {
  return { ...word, value: word.value.slice(word.value.indexOf(option) + option.length + 1) };
}

/** Returns why an awk program is refused, or null. Exported for tests. */
export function findAwkProblem(program: string): string | null {
  const code = stripLiterals(program);
  if (/\bsystem\s*\(/.test(code)) return 'calls system(…), which runs a shell command';
  if (code.replaceAll('||', '  ').includes('|')) return 'pipes to or from a command';
  if (/@\s*[A-Za-z_]/.test(code)) return "uses gawk '@' indirect calls or directives";
  // Output redirection inside print/printf; the file name can be assembled at run time (".gi" "t/hooks/x").
  if (/\bprintf?\b[^;{}\n]*>/.test(code)) return 'writes to a file (use a shell redirection instead)';
  const folded = program.toLowerCase(); // case-insensitive file systems: `.GIT` is `.git`
  for (const name of [...PROTECTED_PATH_SEGMENTS, ...PROTECTED_FILE_NAMES]) {
    if (folded.includes(name)) return `mentions the protected path '${name}'`;
  }
  return null;
}

/** Replaces string literals, regex literals and comments with blanks so only code remains. */
function stripLiterals(program: string): string {
  let out = '';
  let previous = '';
  for (let i = 0; i < program.length; i += 1) {
    const ch = program[i]!;
    if (ch === '"') {
      i = skipDelimited(program, i, '"');
      out += '""';
      previous = '"';
      continue;
    }
    if (ch === '#') {
      while (i < program.length && program[i] !== '\n') i += 1;
      out += '\n';
      previous = '\n';
      continue;
    }
    if (ch === '/' && REGEX_CONTEXT.has(previous)) {
      i = skipDelimited(program, i, '/');
      out += '//';
      previous = '/';
      continue;
    }
    out += ch;
    if (!/\s/.test(ch) || ch === '\n') previous = ch === '\n' ? '\n' : ch;
  }
  return out;
}

/**
 * Returns the index of the closing delimiter (or the end of the line), honouring backslashes. Brackets in
 * regexes are deliberately not honoured: ending early only exposes more text to the checks.
 */
function skipDelimited(text: string, open: number, delimiter: string): number {
  for (let i = open + 1; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\') i += 1;
    else if (ch === delimiter || ch === '\n') return i;
  }
  return text.length;
}
