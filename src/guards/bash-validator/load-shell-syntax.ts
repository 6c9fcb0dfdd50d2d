import { createRequire } from 'node:module';
import { defaultCodeCacheDir, requireWithCodeCache } from './require-with-code-cache.ts';
import type { ShellSyntax } from './shell-ast.ts';

let cached: ShellSyntax | undefined;

/** Parsed once before the parser's compiled code is cached, so the parsing paths are in the cache too. */
const WARM_UP_COMMAND = `cd src && git status --short | grep -v '^??' > "$(mktemp)"; for f in *.ts; do echo "\${f%.ts}"; done`;

/**
 * Loads mvdan-sh (mvdan.cc/sh/v3 compiled to JavaScript) once, on first use. Loading takes ~150 ms, so it
 * is deferred until a command is actually validated, and V8's compiled code for it is kept in the user's
 * cache directory (requireWithCodeCache), which roughly halves that in every later process.
 *
 * The GopherJS runtime has two global side effects on load: it sets `Error.stackTraceLimit = Infinity`
 * (which makes every later `new Error()` in the process capture an unbounded stack) and it assigns
 * `globalThis.require`. Both are restored afterwards; parsing does not need them.
 */
export function loadShellSyntax(): ShellSyntax {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const previousStackTraceLimit = Error.stackTraceLimit;
  const globals = globalThis as { require?: unknown };
  const hadRequire = Object.hasOwn(globals, 'require');
  const previousRequire = globals.require;
  try {
    const loaded = requireWithCodeCache(require.resolve('mvdan-sh'), {
      cacheDir: defaultCodeCacheDir(),
      warmUp: (exports) => {
        (exports as { syntax: ShellSyntax }).syntax.NewParser().Parse(WARM_UP_COMMAND, 'warm-up');
      },
    }).exports as { syntax: ShellSyntax };
    cached = loaded.syntax;
    return cached;
  } finally {
    Error.stackTraceLimit = previousStackTraceLimit;
    if (hadRequire) globals.require = previousRequire;
    else delete globals.require;
  }
}
