import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { hasErrorCode } from '../../shared/has-error-code.ts';

export interface CodeCacheOutcome {
  /** What the module exported (`module.exports`). */
  exports: unknown;
  /** `used`: compiled from the cache; `written`: compiled from source and the cache (re)written; `off`: no cache. */
  cache: 'used' | 'written' | 'off';
}

/**
 * Loads a CommonJS file like `require` does, but keeps V8's compiled code for it on disk between processes
 * (what Node ≥ 22.1's `module.enableCompileCache()` does for every module; Node 20 has no such cache). Worth it
 * only for large files whose compilation dominates a short process, such as the 1.5 MB shell parser every
 * `flotilla hook pre-tool-use` loads. The cache is keyed by the file's path, size and mtime and by the Node
 * version; V8 itself rejects data that does not match the source or its flags, and then it is rewritten. Any
 * failure to read or write the cache only costs the compilation, never the load. `warmUp` runs (only when the
 * cache is about to be written) so that the functions a typical use needs are compiled and cached as well.
 */
export function requireWithCodeCache(
  file: string,
  options: { cacheDir: string | null; warmUp?: (exports: unknown) => void },
): CodeCacheOutcome {
  const { cacheDir } = options;
  const source = readFileSync(file, 'utf8');
  const cachePath = cacheDir === null ? null : join(cacheDir, `${cacheKey(file)}.bin`);
  const cachedData = cachePath === null ? undefined : readIfPresent(cachePath);
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  const module = { exports: {} as unknown };
  const load = script.runInThisContext() as (...args: unknown[]) => void;
  load.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (cachePath === null) return { exports: module.exports, cache: 'off' };
  if (cachedData !== undefined && !script.cachedDataRejected)
    return { exports: module.exports, cache: 'used' };
  try {
    // V8 compiles functions lazily; code compiled by the warm-up goes into the cache too.
    options.warmUp?.(module.exports);
  } catch {
    return { exports: module.exports, cache: 'off' };
  }
  return {
    exports: module.exports,
    cache: writeAtomically(cachePath, script.createCachedData()) ? 'written' : 'off',
  };
}

/** Where Flotilla keeps compiled code: the user's cache directory (XDG), never a shared temp directory. */
export function defaultCodeCacheDir(): string | null {
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : '');
  return base ? join(base, 'flotilla', 'code-cache') : null;
}

function cacheKey(file: string): string {
  const { size, mtimeMs } = statSync(file);
  return createHash('sha256')
    .update(`${file}\0${size}\0${mtimeMs}\0${process.version}\0${process.arch}`)
    .digest('hex')
    .slice(0, 32);
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * `mkdir -p`, one level at a time: Node 20's `mkdirSync(…, { recursive: true })` never returns for some
 * unwritable paths (e.g. under /proc), and a hook must not hang on its cache.
 */
function makeDirectories(dir: string): void {
  const parent = dirname(dir);
  if (parent !== dir && !isDirectory(parent)) makeDirectories(parent);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (!hasErrorCode(error, 'EEXIST')) throw error;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Write-then-rename, so a concurrent reader sees the old cache or the new one, never half of one. */
function writeAtomically(path: string, data: Buffer): boolean {
  try {
    makeDirectories(dirname(path));
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, path);
    return true;
  } catch {
    return false;
  }
}
