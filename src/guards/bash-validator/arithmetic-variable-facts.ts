import { evaluateWord } from './evaluate-word.ts';
import type { ShellWord } from './shell-ast.ts';
import type { CommandWord } from './types.ts';

/** Builtins that assign to the variables named in their arguments with values read at run time. */
const ASSIGNING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf']);

export const INTEGER = /^[-+]?\d+$/;
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parameters whose value is always a number, so arithmetic on them cannot hide a command. */
export const NUMERIC_SPECIAL_PARAMETERS = new Set([
  '#',
  '?',
  '$',
  '!',
  'RANDOM',
  'SRANDOM',
  'LINENO',
  'SECONDS',
  'EPOCHSECONDS',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
]);

interface VariableFacts {
  integerAssignments: number;
  otherAssignments: number;
}

/**
 * What one script assigns to its variables and which of them it uses in arithmetic. Bash evaluates variables
 * used in arithmetic recursively, so each one must be provably an integer: assigned only integers in the same
 * script, or a parameter that is always a number.
 */
export class ArithmeticVariableFacts {
  private readonly facts = new Map<string, VariableFacts>();
  private readonly references = new Set<string>();

  recordAssignment(name: string, integer: boolean): void {
    const facts = this.facts.get(name) ?? { integerAssignments: 0, otherAssignments: 0 };
    if (integer) facts.integerAssignments += 1;
    else facts.otherAssignments += 1;
    this.facts.set(name, facts);
  }

  /** `read x`, `printf -v x`, `mapfile x`, … store run-time text in variables. */
  recordBuiltinAssignments(words: readonly CommandWord[]): void {
    const name = words[0]!.value;
    if (words[0]!.dynamic || !ASSIGNING_BUILTINS.has(name)) return;
    for (let i = 1; i < words.length; i += 1) {
      const value = words[i]!.value;
      if (name === 'printf') {
        if (value === '-v' && words[i + 1]) this.recordAssignment(words[i + 1]!.value, false);
        else if (value.startsWith('-v') && value.length > 2) this.recordAssignment(value.slice(2), false);
        continue;
      }
      if (IDENTIFIER.test(value)) this.recordAssignment(value, false);
    }
  }

  /** `name` is used in arithmetic. */
  reference(name: string): void {
    this.references.add(name);
  }

  /** Every identifier in arithmetic text (`x+y*2`) is used in arithmetic; numbers (`16#ff`) are not. */
  referenceIdentifiers(text: string): void {
    const withoutNumbers = text.replace(/\b\d[\w#@]*/g, ' ');
    for (const match of withoutNumbers.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) this.references.add(match[0]);
  }

  /** The variables used in arithmetic that are not provably integers, once the whole script is known. */
  unprovenReferences(): string[] {
    return [...this.references].filter((name) => !this.isProvablyInteger(name));
  }

  private isProvablyInteger(name: string): boolean {
    const facts = this.facts.get(name);
    if (!facts) return NUMERIC_SPECIAL_PARAMETERS.has(name);
    return facts.otherAssignments === 0 && facts.integerAssignments > 0;
  }
}

/** Whether a word's value is an integer literal or an arithmetic expansion (`$((…))`). */
export function isIntegerWord(word: ShellWord): boolean {
  if (word.Parts.length === 1 && word.Parts[0]!.type === 'ArithmExp') return true;
  const evaluated = evaluateWord(word);
  return evaluated?.length === 1 && !evaluated[0]!.dynamic && INTEGER.test(evaluated[0]!.value);
}
