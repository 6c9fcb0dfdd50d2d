import { messageOf } from '../../shared/message-of.ts';
import { checkInvocation } from './check-invocation.ts';
import { getDefaultBashValidatorRules } from './get-default-bash-validator-rules.ts';
import type { BashPathPlace } from './judge-real-path.ts';
import { maskQuotedText } from './mask-quoted-text.ts';
import { patternMessage } from './messages.ts';
import { parseShellSource } from './parse-shell-source.ts';
import type {
  BashFinding,
  BashValidationResult,
  BashValidatorRules,
  InspectionContext,
  Invocation,
} from './types.ts';
import { walkShellFile } from './walk-shell-file.ts';

/** Longest command accepted (bytes of UTF-16 text); longer input is blocked rather than parsed. */
export const MAX_COMMAND_LENGTH = 100_000;
/** Deepest nesting of scripts inside scripts (`bash -c "sh -c '…'"`). */
export const MAX_NESTING_DEPTH = 8;

/** Where a command runs: its cwd, the working tree it may write in and the paths it may never reach. */
export type BashPlaceInput = Omit<BashPathPlace, 'cwdMayChange'>;

/** `cd`, `pushd` or `popd` anywhere in the text, nested scripts included: relative paths then move. */
const DIRECTORY_CHANGE = /(?:^|[\s;&|(`{'"])(?:cd|pushd|popd)(?=[\s;&|)`}'"]|$)/;

function changesDirectory(command: string): boolean {
  return DIRECTORY_CHANGE.test(command);
}

/**
 * Decides whether an agent may run `command` in Bash. Synchronous; never throws (an internal error is
 * reported as a block). See README.md for the rules. Without `place` it is pure (text only); with it, the
 * paths the command writes are also followed through the file system's symlinks (judge-real-path.ts).
 */
export function validateBashCommand(
  command: string,
  rules: BashValidatorRules = getDefaultBashValidatorRules(),
  place: BashPlaceInput | null = null,
): BashValidationResult {
  try {
    if (typeof command !== 'string')
      return { allowed: false, reason: 'Blocked: the command is not a string' };
    if (command.trim() === '') return { allowed: true };
    if (command.length > MAX_COMMAND_LENGTH) {
      return {
        allowed: false,
        reason: `Blocked: the command is longer than ${MAX_COMMAND_LENGTH} characters`,
      };
    }
    const run = new ValidationRun(
      rules,
      place === null ? null : { ...place, cwdMayChange: changesDirectory(command) },
    );
    run.checkSource(command, 'the command');
    return run.result();
  } catch (error) {
    const detail = messageOf(error);
    return { allowed: false, reason: `Blocked: internal validator error (${detail})` };
  }
}

class ValidationRun implements InspectionContext {
  private readonly findings: BashFinding[] = [];
  private depth = 0;

  constructor(
    readonly rules: BashValidatorRules,
    readonly place: BashPathPlace | null,
  ) {}

  report(severity: BashFinding['severity'], reason: string): void {
    this.findings.push({ severity, reason });
  }

  checkInvocation(invocation: Invocation): void {
    checkInvocation(invocation, this);
  }

  checkSource(source: string, origin: string): void {
    if (this.depth >= MAX_NESTING_DEPTH) {
      this.report('danger', `Blocked: scripts nested more than ${MAX_NESTING_DEPTH} levels deep`);
      return;
    }
    if (source.includes('\u0000')) {
      // Bash cannot hold a NUL: passed through argv, the text would be cut there and run something other
      // than what was checked (`git push\0x` runs `git push`).
      this.report('danger', `Blocked: ${origin} contains a NUL character`);
      return;
    }
    const parsed = parseShellSource(source);
    if (!parsed.ok) {
      this.report(
        'danger',
        `Blocked: ${origin} is not valid shell syntax (${parsed.error}); commands that do not parse are not run`,
      );
      return;
    }
    this.depth += 1;
    try {
      const firstWalkFinding = this.findings.length;
      const { heredocByteRanges } = walkShellFile(parsed.file, this);
      // The published check: block patterns against the quote-masked text. Reported before the walk's findings.
      const masked = maskQuotedText(source, toCharacterRanges(source, heredocByteRanges));
      const textual: BashFinding[] = [];
      for (const pattern of this.rules.blockPatterns) {
        if (pattern.regex.test(masked))
          textual.push({ severity: 'danger', reason: patternMessage(pattern.source) });
      }
      this.findings.splice(firstWalkFinding, 0, ...textual);
    } finally {
      this.depth -= 1;
    }
  }

  result(): BashValidationResult {
    const danger = this.findings.find((finding) => finding.severity === 'danger');
    const first = danger ?? this.findings[0];
    return first ? { allowed: false, reason: first.reason } : { allowed: true };
  }
}

/** mvdan/sh reports byte offsets into the UTF-8 text; convert them to UTF-16 string indices. */
function toCharacterRanges(
  source: string,
  byteRanges: ReadonlyArray<[number, number]>,
): Array<[number, number]> {
  if (byteRanges.length === 0) return [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the ASCII range is the point.
  if (/^[\x00-\x7f]*$/.test(source)) return byteRanges.map(([start, end]) => [start, end]);
  const byteToChar = new Map<number, number>();
  let bytes = 0;
  for (let index = 0; index < source.length; index += 1) {
    byteToChar.set(bytes, index);
    const code = source.codePointAt(index)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (code >= 0x10000) index += 1;
  }
  byteToChar.set(bytes, source.length);
  return byteRanges.map(([start, end]) => [byteToChar.get(start) ?? 0, byteToChar.get(end) ?? source.length]);
}
