import type { CommandWord } from '../types.ts';

/** `--name`, or an unambiguous abbreviation of it (git's parse-options accepts those), with `=value`. */
export function isLongOption(arg: CommandWord, name: string, minimumLength = 1): boolean {
  if (!arg.value.startsWith('--')) return false;
  const written = arg.value.slice(2).split('=')[0]!;
  return written.length >= Math.min(minimumLength, name.length) && name.startsWith(written);
}

/** A short-option cluster (`-xdf`) containing `letter`. */
export function hasShortFlag(arg: CommandWord, letter: string): boolean {
  return /^-[a-zA-Z]+$/.test(arg.value) && arg.value.includes(letter);
}

/** Pathspecs that mean "everything": `.`, `./`, `..`, `*`, `:/`, `:(top)`… */
export function isWholeTreePathspec(arg: CommandWord): boolean {
  const value = arg.value;
  if (value === '.' || value === './' || value === '..' || value === '../' || value === '*') return true;
  if (value.startsWith(':/') || value === ':' || value.startsWith(':(')) return true;
  return arg.glob && /^[*?[]/.test(value);
}
