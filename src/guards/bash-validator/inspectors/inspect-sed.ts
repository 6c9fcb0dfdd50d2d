import { buildStaticWord } from '../command-word.ts';
import type { BashPathPlace } from '../judge-real-path.ts';
import { displayValue } from '../messages.ts';
import { parseCommandOptions } from '../parse-command-options.ts';
import { findProtectedWriteTarget } from '../protected-paths.ts';
import type { CommandInspector, CommandWord } from '../types.ts';

const SED_OPTIONS = {
  short: {
    n: 'flag',
    e: 'value',
    f: 'value',
    i: 'optional',
    E: 'flag',
    r: 'flag',
    s: 'flag',
    z: 'flag',
    u: 'flag',
    b: 'flag',
    l: 'value',
  },
  long: {
    quiet: 'flag',
    silent: 'flag',
    expression: 'value',
    file: 'value',
    'in-place': 'optional',
    'regexp-extended': 'flag',
    separate: 'flag',
    'null-data': 'flag',
    'zero-terminated': 'flag',
    unbuffered: 'flag',
    binary: 'flag',
    'line-length': 'value',
    posix: 'flag',
    debug: 'flag',
    sandbox: 'flag',
    'follow-symlinks': 'flag',
    help: 'flag',
    version: 'flag',
  },
  permute: true,
} as const;

/**
 * sed is allowed, but GNU sed's `e` command and the `e` flag of `s///` run shell commands, so scripts are
 * scanned command by command: `e` is blocked, `w`/`W` targets and in-place (`-i`) files must not be
 * protected paths, and script files (`-f`) are blocked. A script the scanner cannot follow is blocked.
 */
export const inspectSed: CommandInspector = (invocation, context) => {
  const parsed = parseCommandOptions(invocation.words.slice(1), SED_OPTIONS);
  if (parsed.error) {
    context.report('danger', `Blocked: cannot follow the 'sed' arguments (${parsed.error})`);
    return;
  }
  const scripts: CommandWord[] = [];
  let inPlace = false;
  for (const option of parsed.options) {
    if (option.name === '-f' || option.name === '--file') {
      context.report('danger', "Blocked: 'sed -f' runs a script file the validator cannot see");
      return;
    }
    if (option.name === '-e' || option.name === '--expression')
      scripts.push(option.value ?? buildStaticWord(''));
    if (option.name === '-i' || option.name === '--in-place') inPlace = true;
  }
  const files = [...parsed.operands];
  if (scripts.length === 0) {
    const script = files.shift();
    if (!script) return;
    scripts.push(script);
  }
  for (const script of scripts) {
    if (script.dynamic) {
      context.report(
        'danger',
        `Blocked: the sed script '${displayValue(script.value)}' is computed at run time`,
      );
      return;
    }
    const problem = findSedProblem(script.value, context.place);
    if (problem) {
      context.report('danger', `Blocked: the sed script ${problem}`);
      return;
    }
  }
  if (!inPlace) return;
  for (const file of files) {
    const problem = findProtectedWriteTarget(file, context.place);
    if (problem) context.report('danger', `Blocked: 'sed -i' refused: ${problem}`);
  }
};

/** Scans a GNU sed script. Returns why it is refused, or null. Exported for tests. */
export function findSedProblem(script: string, place: BashPathPlace | null = null): string | null {
  const scanner = new SedScanner(script, place);
  try {
    return scanner.scan();
  } catch {
    return 'could not be followed, so it is refused';
  }
}

/** Commands whose text runs to the end of the line (`a text`, `r file`…). */
const TEXT_COMMANDS = 'rRaic';
/** Branches and `v`, followed by a label or a version. */
const LABEL_COMMANDS = 'btTv';
/** Commands taking an optional number (`q5`, `l 70`). */
const COUNT_COMMANDS = 'lLqQ';
/** Commands with no argument. */
const PLAIN_COMMANDS = '=dDgGhHnNpPxzF';

class SedScanner {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly place: BashPathPlace | null,
  ) {}

  scan(): string | null {
    while (true) {
      this.skip(/[\s;]/);
      if (this.i >= this.text.length) return null;
      const ch = this.text[this.i]!;
      if (ch === '#') {
        this.toLineEnd();
        continue;
      }
      if (ch === '}') {
        this.i += 1;
        continue;
      }
      this.address();
      this.skip(/\s/);
      if (this.text[this.i] === ',') {
        this.i += 1;
        this.skip(/\s/);
        this.address();
      }
      this.skip(/[\s!]/);
      const problem = this.command();
      if (problem) return problem;
    }
  }

  private command(): string | null {
    const ch = this.text[this.i];
    if (ch === undefined) throw new Error('missing command');
    this.i += 1;
    switch (ch) {
      case '{':
        return null;
      case 'e':
        return "uses the 'e' command, which runs a shell command";
      case 's':
        return this.substitute();
      case 'y': {
        const delimiter = this.delimiter();
        this.delimitedPart(delimiter);
        this.delimitedPart(delimiter);
        return this.endOfCommand();
      }
      case 'w':
      case 'W':
        return this.writeTarget();
      case ':':
        this.toLineEnd(true);
        return null;
    }
    return this.commandWithoutScript(ch);
  }

  /** `s/regex/replacement/flags`: the `e` flag runs a shell command, `w file` writes a file. */
  private substitute(): string | null {
    const delimiter = this.delimiter();
    this.delimitedPart(delimiter);
    this.delimitedPart(delimiter);
    while (this.i < this.text.length && /[gpiImMe0-9]/.test(this.text[this.i]!)) {
      if (this.text[this.i] === 'e') return "uses the 's///e' flag, which runs a shell command";
      this.i += 1;
    }
    if (this.text[this.i] === 'w') {
      this.i += 1;
      return this.writeTarget();
    }
    return this.endOfCommand();
  }

  /** The commands that neither run nor write anything: text, labels, counts, and the one-letter ones. */
  private commandWithoutScript(ch: string): string | null {
    if (TEXT_COMMANDS.includes(ch)) {
      this.toLineEndWithContinuations();
      return null;
    }
    if (LABEL_COMMANDS.includes(ch)) {
      this.skip(/[^;\n}]/);
      return null;
    }
    if (COUNT_COMMANDS.includes(ch)) {
      this.skip(/[\s\d]/);
      return this.endOfCommand();
    }
    if (PLAIN_COMMANDS.includes(ch)) return this.endOfCommand();
    throw new Error(`unknown sed command ${ch}`);
  }

  private address(): void {
    const ch = this.text[this.i];
    if (ch === undefined) return;
    if (/[\d$+~]/.test(ch)) {
      this.skip(/[\d$+~]/);
      return;
    }
    if (ch === '/' || ch === '\\') {
      if (ch === '\\') this.i += 1;
      const delimiter = this.text[this.i];
      if (delimiter === undefined || delimiter === '\n') throw new Error('bad address');
      this.i += 1;
      this.delimitedPart(delimiter);
      this.skip(/[IM]/);
    }
  }

  private delimiter(): string {
    const delimiter = this.text[this.i];
    if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') throw new Error('bad delimiter');
    this.i += 1;
    return delimiter;
  }

  /** Consumes up to and including the next unescaped delimiter. */
  private delimitedPart(delimiter: string): void {
    while (this.i < this.text.length) {
      const ch = this.text[this.i]!;
      this.i += ch === '\\' ? 2 : 1;
      if (ch === delimiter) return;
    }
    throw new Error('unterminated');
  }

  private writeTarget(): string | null {
    this.skip(/[ \t]/);
    const start = this.i;
    this.toLineEnd();
    const target = this.text.slice(start, this.i).trimEnd();
    if (target === '/dev/stdout' || target === '/dev/stderr') return null;
    const problem = findProtectedWriteTarget(buildStaticWord(target), this.place);
    return problem ? `writes to a protected path (${problem})` : null;
  }

  private endOfCommand(): string | null {
    this.skip(/[ \t]/);
    const ch = this.text[this.i];
    if (ch === undefined || ch === ';' || ch === '\n' || ch === '}' || ch === '#') return null;
    throw new Error('trailing characters');
  }

  private skip(pattern: RegExp): void {
    while (this.i < this.text.length && pattern.test(this.text[this.i]!)) this.i += 1;
  }

  private toLineEnd(stopAtSemicolon = false): void {
    while (this.i < this.text.length && this.text[this.i] !== '\n') {
      if (stopAtSemicolon && this.text[this.i] === ';') return;
      this.i += 1;
    }
  }

  private toLineEndWithContinuations(): void {
    while (this.i < this.text.length && this.text[this.i] !== '\n') {
      this.i += this.text[this.i] === '\\' ? 2 : 1;
    }
  }
}
