import { createRequire } from 'node:module';
import path from 'node:path';

/** The bundled gemini-cli entry point (`@google/gemini-cli`'s `bin`), or undefined when it is not installed. */
export function findGeminiBinary(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('@google/gemini-cli/package.json');
    return path.join(path.dirname(manifest), 'bundle', 'gemini.js');
  } catch {
    return undefined;
  }
}
