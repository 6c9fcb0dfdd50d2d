import type { BashPathPlace } from './judge-real-path.ts';

/** Outcome of validating one Bash command line. */
export type BashValidationResult = { allowed: true } | { allowed: false; reason: string };

/** A compiled block pattern: `source` is what error messages and `--print-rules` show. */
export interface BashBlockPattern {
  source: string;
  regex: RegExp;
}

/** Effective rules. Build them with `buildBashValidatorRules`; the built-in structural rules always apply. */
export interface BashValidatorRules {
  /** Command names allowed as the first word of a simple command (exact match, after unquoting). */
  allowedCommands: ReadonlySet<string>;
  /** Regexes that block when they match the quote-masked command text or any simple command in it. */
  blockPatterns: readonly BashBlockPattern[];
  /**
   * Read-only sessions (modes `investigate` and `refine`): only the read-only commands, and no output
   * redirection but to /dev/null and the standard streams (inspect-read-only.ts). Absent: ordinary rules.
   */
  readOnly?: boolean;
}

/**
 * `danger` findings come from the blocklist and the structural rules; `not-allowed` from the allowlist.
 * Like the published validator, a blocklist hit wins over an allowlist miss when both occur.
 */
export interface BashFinding {
  severity: 'danger' | 'not-allowed';
  reason: string;
}

/** A word after static evaluation. `DYNAMIC_MARK` stands for text only known at run time. */
export interface CommandWord {
  /** Value with quotes removed, escapes resolved and ANSI-C strings decoded. */
  value: string;
  /** True when part of the word is computed at run time (parameter, command or arithmetic expansion). */
  dynamic: boolean;
  /** True when the word contains unquoted glob characters (`*`, `?`, `[`) or an extended glob. */
  glob: boolean;
  /** Rendering for textual block patterns: quoted text blanked, as the published quote masking does. */
  masked: string;
}

/** Where a command's standard input comes from, as far as the validator can tell. */
export type StdinSource =
  | { kind: 'inherit' }
  | { kind: 'pipe'; upstream: readonly string[] }
  | { kind: 'file' }
  | { kind: 'script'; text: string | null };

/** One simple command about to run, after unwrapping `env`, `xargs`, `find -exec` and friends. */
export interface Invocation {
  /** `words[0]` is the command name. Brace expansion has been applied. */
  words: readonly CommandWord[];
  /** Names assigned for this command only (`FOO=1 cmd`, `env FOO=1 cmd`). */
  assignedNames: readonly string[];
  stdin: StdinSource;
  /** True for the command a package runner (`npx`, `pnpm dlx`, …) runs: blocklist only, no allowlist. */
  exemptFromAllowlist: boolean;
  /** Wrapper chain for messages, outermost first (e.g. `['xargs']`). */
  via: readonly string[];
}

/** What command inspectors use to report findings and to validate nested commands. */
export interface InspectionContext {
  readonly rules: BashValidatorRules;
  /** Where the command runs, when known: write targets are then followed through symlinks. */
  readonly place: BashPathPlace | null;
  report(severity: BashFinding['severity'], reason: string): void;
  /** Validates a wrapped command with the full rules. */
  checkInvocation(invocation: Invocation): void;
  /** Parses and validates a nested shell script (e.g. the argument of `bash -c`). */
  checkSource(source: string, origin: string): void;
}

export type CommandInspector = (invocation: Invocation, context: InspectionContext) => void;
