import { DYNAMIC_MARK } from './command-word.ts';
import { decodeAnsiCString } from './decode-ansi-c-string.ts';
import { expandBraces } from './expand-braces.ts';
import type { ShellDblQuoted, ShellLit, ShellNode, ShellSglQuoted, ShellWord } from './shell-ast.ts';
import type { CommandWord } from './types.ts';

interface WordBuilder {
  value: string;
  pattern: string;
  masked: string;
  dynamic: boolean;
  glob: boolean;
}

const DOUBLE_QUOTE_ESCAPABLE = new Set(['$', '`', '"', '\\', '\n']);

/**
 * Statically evaluates a shell word and applies brace expansion. Quotes are removed, backslash escapes
 * resolved and `$'…'` decoded, so `r''m`, `\rm`, `"rm"` and `$'\x72m'` all evaluate to `rm`.
 * Returns null when brace expansion produces too many words.
 */
export function evaluateWord(word: ShellWord): CommandWord[] | null {
  const builder: WordBuilder = { value: '', pattern: '', masked: '', dynamic: false, glob: false };
  for (const part of word.Parts) appendPart(builder, part);
  const base: CommandWord = {
    value: builder.value,
    dynamic: builder.dynamic,
    glob: builder.glob,
    masked: builder.masked,
  };
  const expanded = expandBraces(builder.pattern);
  if (expanded === null) return null;
  if (expanded.length === 1) return [base];
  return expanded.map((pattern) => {
    const value = unescapePattern(pattern);
    return { value, dynamic: value.includes(DYNAMIC_MARK), glob: builder.glob, masked: value };
  });
}

function appendPart(builder: WordBuilder, part: ShellNode): void {
  switch (part.type) {
    case 'Lit':
      appendUnquotedLiteral(builder, (part as ShellLit).Value);
      return;
    case 'SglQuoted': {
      const quoted = part as ShellSglQuoted;
      const text = quoted.Dollar ? decodeAnsiCString(quoted.Value) : quoted.Value;
      appendQuoted(builder, text, quoted.Dollar ? "$'" : "'", "'");
      return;
    }
    case 'DblQuoted': {
      const quoted = part as ShellDblQuoted;
      let text = '';
      let dynamic = false;
      for (const inner of quoted.Parts) {
        if (inner.type === 'Lit') {
          text += unescapeDoubleQuoted((inner as ShellLit).Value);
        } else {
          text += DYNAMIC_MARK;
          dynamic = true;
        }
      }
      appendQuoted(builder, text, quoted.Dollar ? '$"' : '"', '"');
      // `$"…"` is translated through the message catalog named by TEXTDOMAIN: its value is not its text.
      if (dynamic || quoted.Dollar) builder.dynamic = true;
      return;
    }
    case 'ExtGlob':
      builder.glob = true;
      appendDynamic(builder);
      return;
    default:
      // ParamExp, CmdSubst, ArithmExp, ProcSubst: only known at run time.
      appendDynamic(builder);
  }
}

function appendUnquotedLiteral(builder: WordBuilder, raw: string): void {
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1]!;
      i += 1;
      if (next === '\n') continue;
      builder.value += next;
      builder.pattern += `\\${next}`;
      builder.masked += `\\${next}`;
      continue;
    }
    // A `[` is a bracket expression only when a `]` follows; a lone `[` (the test command) is literal.
    if (ch === '*' || ch === '?' || (ch === '[' && raw.indexOf(']', i + 1) !== -1)) builder.glob = true;
    builder.value += ch;
    builder.pattern += ch;
    builder.masked += ch;
  }
}

function appendQuoted(builder: WordBuilder, text: string, open: string, close: string): void {
  builder.value += text;
  for (const ch of text) builder.pattern += ch === DYNAMIC_MARK ? ch : `\\${ch}`;
  builder.masked += open + ' '.repeat(text.length) + close;
}

function appendDynamic(builder: WordBuilder): void {
  builder.value += DYNAMIC_MARK;
  builder.pattern += DYNAMIC_MARK;
  builder.masked += '$_';
  builder.dynamic = true;
}

function unescapeDoubleQuoted(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i += 1) {
    const ch = raw[i]!;
    const next = raw[i + 1];
    if (ch === '\\' && next !== undefined && DOUBLE_QUOTE_ESCAPABLE.has(next)) {
      if (next !== '\n') out += next;
      i += 1;
    } else {
      out += ch;
    }
  }
  return out;
}

function unescapePattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      out += pattern[i + 1];
      i += 1;
    } else {
      out += ch;
    }
  }
  return out;
}
