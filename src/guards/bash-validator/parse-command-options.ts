import { DYNAMIC_MARK, sliceWord } from './command-word.ts';
import type { CommandWord } from './types.ts';

export type OptionArity = 'flag' | 'value' | 'optional';

export interface OptionSpec {
  /** Short options by letter. */
  short: Readonly<Record<string, OptionArity>>;
  /** Long options by name without the leading `--`. Unique prefixes are accepted, as getopt_long does. */
  long: Readonly<Record<string, OptionArity>>;
  /** True for GNU permutation (options may follow operands); false stops at the first operand. */
  permute: boolean;
}

export interface ParsedOption {
  /** `-x` or `--name` (the full long name even when abbreviated). */
  name: string;
  value: CommandWord | null;
}

export interface ParsedOptions {
  options: ParsedOption[];
  operands: CommandWord[];
  /** Set when an option is unknown, ambiguous, lacks its value, or is computed at run time. */
  error: string | null;
}

/**
 * getopt-style parsing of a command's arguments, enough to find which word is the program a wrapper runs
 * and which option values matter. Anything it does not understand is reported as an error so callers can
 * fail closed.
 */
export function parseCommandOptions(args: readonly CommandWord[], spec: OptionSpec): ParsedOptions {
  const result: ParsedOptions = { options: [], operands: [], error: null };
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    const text = arg.value;
    if (text === '--') {
      i += 1;
      break;
    }
    if (text.startsWith(DYNAMIC_MARK) && arg.dynamic) {
      if (spec.permute || result.operands.length === 0) {
        result.error ??= 'an argument computed at run time could be an option';
      }
      result.operands.push(arg);
      if (!spec.permute) {
        i += 1;
        break;
      }
      continue;
    }
    if (text === '-' || !text.startsWith('-')) {
      result.operands.push(arg);
      if (!spec.permute) {
        i += 1;
        break;
      }
      continue;
    }
    if (text.startsWith('--')) {
      const consumedNext = parseLongOption(arg, args[i + 1], spec, result);
      if (consumedNext) i += 1;
      continue;
    }
    const consumedNext = parseShortCluster(arg, args[i + 1], spec, result);
    if (consumedNext) i += 1;
  }
  for (; i < args.length; i += 1) result.operands.push(args[i]!);
  return result;
}

function parseLongOption(
  arg: CommandWord,
  next: CommandWord | undefined,
  spec: OptionSpec,
  result: ParsedOptions,
): boolean {
  const text = arg.value;
  const equals = text.indexOf('=');
  const written = text.slice(2, equals === -1 ? undefined : equals);
  if (written.includes(DYNAMIC_MARK)) {
    result.error ??= `option '${text}' is computed at run time`;
    return false;
  }
  const name = resolveLongName(written, spec);
  if (name === null) {
    result.error ??= `unrecognised or ambiguous option '--${written}'`;
    return false;
  }
  const arity = spec.long[name]!;
  if (equals !== -1) {
    if (arity === 'flag') result.error ??= `option '--${name}' takes no value`;
    result.options.push({ name: `--${name}`, value: sliceWord(arg, equals + 1) });
    return false;
  }
  if (arity === 'value') {
    if (!next) {
      result.error ??= `option '--${name}' needs a value`;
      result.options.push({ name: `--${name}`, value: null });
      return false;
    }
    result.options.push({ name: `--${name}`, value: next });
    return true;
  }
  result.options.push({ name: `--${name}`, value: null });
  return false;
}

function resolveLongName(written: string, spec: OptionSpec): string | null {
  if (Object.hasOwn(spec.long, written)) return written;
  const candidates = Object.keys(spec.long).filter((name) => name.startsWith(written));
  return candidates.length === 1 && written.length > 0 ? candidates[0]! : null;
}

function parseShortCluster(
  arg: CommandWord,
  next: CommandWord | undefined,
  spec: OptionSpec,
  result: ParsedOptions,
): boolean {
  const text = arg.value;
  for (let k = 1; k < text.length; k += 1) {
    const letter = text[k]!;
    const arity = Object.hasOwn(spec.short, letter) ? spec.short[letter] : undefined;
    if (letter === DYNAMIC_MARK || arity === undefined) {
      result.error ??= `unrecognised option '-${letter === DYNAMIC_MARK ? '$…' : letter}'`;
      return false;
    }
    if (arity === 'flag') {
      result.options.push({ name: `-${letter}`, value: null });
      continue;
    }
    const rest = text.slice(k + 1);
    if (rest.length > 0) {
      result.options.push({ name: `-${letter}`, value: sliceWord(arg, k + 1) });
      return false;
    }
    if (arity === 'optional') {
      result.options.push({ name: `-${letter}`, value: null });
      return false;
    }
    if (!next) {
      result.error ??= `option '-${letter}' needs a value`;
      result.options.push({ name: `-${letter}`, value: null });
      return false;
    }
    result.options.push({ name: `-${letter}`, value: next });
    return true;
  }
  return false;
}
