import type { CommandWord } from './types.ts';

/** Stands for run-time text inside a word's static value. Bash strings cannot contain NUL. */
export const DYNAMIC_MARK = '\u0000';

/** Builds a plain static word (used for synthesised words and in tests). */
export function buildStaticWord(value: string): CommandWord {
  return { value, dynamic: false, glob: false, masked: value };
}

/** Builds a word whose whole value is only known at run time (xargs input, `find -exec {}`). */
export function buildDynamicWord(): CommandWord {
  return { value: DYNAMIC_MARK, dynamic: true, glob: false, masked: '$_' };
}

/** Takes the part of a word after `offset` characters of its value (e.g. the value of `--opt=value`). */
export function sliceWord(word: CommandWord, offset: number): CommandWord {
  const value = word.value.slice(offset);
  return { value, dynamic: value.includes(DYNAMIC_MARK), glob: word.glob, masked: value };
}

/** Final path component, so `/bin/rm` and `./rm` are recognised as `rm`. */
export function commandBaseName(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash === -1 ? name : name.slice(slash + 1);
}
