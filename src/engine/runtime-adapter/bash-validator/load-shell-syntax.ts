import { createRequire } from 'node:module';
import type { ShellSyntax } from './shell-ast.ts';

let cached: ShellSyntax | undefined;

/**
 * Loads mvdan-sh (mvdan.cc/sh/v3 compiled to JavaScript) once, on first use. Loading takes ~150 ms, so it
 * is deferred until a command is actually validated.
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
    const loaded = require('mvdan-sh') as { syntax: ShellSyntax };
    cached = loaded.syntax;
    return cached;
  } finally {
    Error.stackTraceLimit = previousStackTraceLimit;
    if (hadRequire) globals.require = previousRequire;
    else delete globals.require;
  }
}
