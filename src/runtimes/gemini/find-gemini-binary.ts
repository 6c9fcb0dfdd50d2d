import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findOnPath } from '../../sandbox/find-on-path.ts';

/** Where a package install puts gemini-cli's entry point (its `bin`), relative to a `node_modules`. */
const BUNDLE = join('@google', 'gemini-cli', 'bundle', 'gemini.js');

/**
 * gemini-cli's entry point (`bundle/gemini.js`, run with node), located, never imported: the
 * `@google/gemini-cli` package in a `node_modules` above Flotilla's own files (installed beside it, or
 * Flotilla's pinned devDependency), else the `gemini` on PATH when it is that bundle (`npm install -g
 * @google/gemini-cli`). Undefined when neither is there.
 */
export function findGeminiBinary(pathEnv: string = process.env.PATH ?? ''): string | undefined {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const bundle = join(dir, 'node_modules', BUNDLE);
    if (existsSync(bundle)) return bundle;
    if (dirname(dir) === dir) break;
  }
  const onPath = findOnPath('gemini', pathEnv);
  if (onPath === undefined) return undefined;
  const real = realpathSync(onPath);
  return real.endsWith(join('bundle', 'gemini.js')) ? real : undefined;
}
