export interface JsonSyntaxError {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  message: string;
}

/**
 * Finds the first syntax error in a JSON text with its line and column. Node 20's JSON.parse reports a
 * character offset only for some errors (and never a line), so this small scanner re-reads the text after
 * JSON.parse failed. Returns undefined when the text is valid JSON.
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let index = 0;

  class SyntaxProblem extends Error {
    constructor(
      message: string,
      readonly at: number,
    ) {
      super(message);
    }
  }
  const describe = (at: number) => (at >= text.length ? 'end of file' : `${JSON.stringify(text[at])}`);
  const fail = (expected: string, at = index): never => {
    throw new SyntaxProblem(`expected ${expected}, found ${describe(at)}`, at);
  };
  const skipWhitespace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] ?? '')) index++;
  };
  const literal = (word: string) => {
    // `npm test` unquoted reads better as "expected a value, found n" than as a broken `null`.
    if (text.slice(index, index + word.length) !== word) fail('a value');
    index += word.length;
  };
  const string = () => {
    index++; // opening quote
    while (index < text.length) {
      const char = text[index] ?? '';
      if (char === '"') {
        index++;
        return;
      }
      if (char === '\\') {
        const escaped = text[index + 1] ?? '';
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6)))
            fail('4 hex digits after \\u', index + 2);
          index += 6;
        } else if ('"\\/bfnrt'.includes(escaped) && escaped !== '') {
          index += 2;
        } else {
          fail('a valid escape sequence', index + 1);
        }
        continue;
      }
      if (char < ' ') fail('a closing quote (control characters must be escaped)');
      index++;
    }
    fail('a closing quote');
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index));
    if (match === null || match[0] === '' || match[0] === '-') fail('a value');
    index += match?.[0].length ?? 0;
  };
  const value = () => {
    skipWhitespace();
    const char = text[index];
    if (char === '{') {
      object();
      return;
    }
    if (char === '[') {
      array();
      return;
    }
    if (char === '"') {
      string();
      return;
    }
    if (char === 't') {
      literal('true');
      return;
    }
    if (char === 'f') {
      literal('false');
      return;
    }
    if (char === 'n') {
      literal('null');
      return;
    }
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      number();
      return;
    }
    fail('a value');
  };
  const object = () => {
    index++;
    skipWhitespace();
    if (text[index] === '}') {
      index++;
      return;
    }
    for (;;) {
      skipWhitespace();
      if (text[index] !== '"') fail('a double-quoted property name');
      string();
      skipWhitespace();
      if (text[index] !== ':') fail("':' after the property name");
      index++;
      value();
      skipWhitespace();
      if (text[index] === ',') {
        index++;
        continue;
      }
      if (text[index] === '}') {
        index++;
        return;
      }
      fail("',' or '}'");
    }
  };
  const array = () => {
    index++;
    skipWhitespace();
    if (text[index] === ']') {
      index++;
      return;
    }
    for (;;) {
      value();
      skipWhitespace();
      if (text[index] === ',') {
        index++;
        continue;
      }
      if (text[index] === ']') {
        index++;
        return;
      }
      fail("',' or ']'");
    }
  };

  try {
    // A UTF-8 byte order mark is tolerated by loadConfig, which strips it before parsing.
    value();
    skipWhitespace();
    if (index < text.length) fail('end of file');
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxProblem)) throw error;
    return { ...lineAndColumn(text, error.at), message: error.message };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}
