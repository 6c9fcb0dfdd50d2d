import { evaluateWord } from './evaluate-word.ts';
import type { ShellWord } from './shell-ast.ts';

/** Static value of a word (quotes removed, escapes resolved), or null when computed at run time. */
export function staticWordText(word: ShellWord): string | null {
  const evaluated = evaluateWord(word);
  const only = evaluated?.length === 1 ? evaluated[0]! : null;
  return only && !only.dynamic ? only.value : null;
}
