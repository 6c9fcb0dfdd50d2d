const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\u0007',
  b: '\b',
  e: '\u001b',
  E: '\u001b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * Decodes the body of a bash `$'…'` string (the text between the quotes) the way bash does, so that
 * `$'\x72m'` is seen as `rm`. Like bash, the value ends at the first NUL byte.
 */
export function decodeAnsiCString(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      i += 1;
      continue;
    }
    const next = body[i + 1]!;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    let code: number | null = null;
    let consumed = 0;
    if (next >= '0' && next <= '7') {
      const match = /^[0-7]{1,3}/.exec(body.slice(i + 1))!;
      code = Number.parseInt(match[0], 8) & 0xff;
      consumed = 1 + match[0].length;
    } else if (next === 'x') {
      const match = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 2));
      if (match) {
        code = Number.parseInt(match[0], 16);
        consumed = 2 + match[0].length;
      }
    } else if (next === 'u' || next === 'U') {
      const match = (next === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(body.slice(i + 2));
      if (match) {
        code = Number.parseInt(match[0], 16);
        consumed = 2 + match[0].length;
      }
    } else if (next === 'c' && i + 2 < body.length) {
      code = body.charCodeAt(i + 2) & 0x1f;
      consumed = 3;
    }
    if (code === null) {
      // Unknown escape: bash keeps the backslash.
      out += ch + next;
      i += 2;
      continue;
    }
    if (code === 0) return out;
    out += code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
    i += consumed;
  }
  return out;
}
