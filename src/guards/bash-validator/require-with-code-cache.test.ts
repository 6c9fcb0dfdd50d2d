import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireWithCodeCache } from './require-with-code-cache.ts';

const directories: string[] = [];
function temporaryDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-code-cache-'));
  directories.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function writeModule(dir: string): string {
  const file = join(dir, 'module.cjs');
  writeFileSync(
    file,
    "const { basename } = require('node:path');\nmodule.exports = { name: basename(__filename), double: (n) => n * 2 };\n",
  );
  return file;
}

const loader = new URL('./require-with-code-cache.ts', import.meta.url).href;

/**
 * Loads in a fresh process: within one process V8's in-memory compilation cache answers a second compile of
 * the same source, so only a new process shows whether the cache on disk is used or rejected.
 */
function loadInNewProcess(file: string, cacheDir: string): { cache: string; name: string } {
  const script = `const { requireWithCodeCache } = await import(${JSON.stringify(loader)});
const outcome = requireWithCodeCache(${JSON.stringify(file)}, { cacheDir: ${JSON.stringify(cacheDir)} });
process.stdout.write(JSON.stringify({ cache: outcome.cache, name: outcome.exports.name }));`;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx/esm', '--input-type=module', '--eval', script],
    {
      encoding: 'utf8',
      timeout: 20_000,
    },
  );
  if (result.status !== 0) throw new Error(`child failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as { cache: string; name: string };
}

describe('requireWithCodeCache', () => {
  it('loads like require, writes the cache once, then compiles from it', () => {
    const file = writeModule(temporaryDirectory());
    const cacheDir = join(temporaryDirectory(), 'cache');
    let warmUps = 0;
    const warmUp = (exports: unknown) => {
      warmUps += (exports as { double(n: number): number }).double(1) === 2 ? 1 : 0;
    };
    const first = requireWithCodeCache(file, { cacheDir, warmUp });
    expect(first.cache).toBe('written');
    expect((first.exports as { name: string }).name).toBe('module.cjs');
    expect(readdirSync(cacheDir)).toHaveLength(1);
    const second = requireWithCodeCache(file, { cacheDir, warmUp });
    expect(second.cache).toBe('used');
    expect((second.exports as { double(n: number): number }).double(21)).toBe(42);
    expect(warmUps).toBe(1);
  });

  it('a new process compiles from the cache; one V8 rejects (corrupt, another build) is rewritten', () => {
    const file = writeModule(temporaryDirectory());
    const cacheDir = temporaryDirectory();
    requireWithCodeCache(file, { cacheDir });
    expect(loadInNewProcess(file, cacheDir)).toEqual({ cache: 'used', name: 'module.cjs' });
    const [entry] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, entry!), 'not V8 code');
    expect(loadInNewProcess(file, cacheDir)).toEqual({ cache: 'written', name: 'module.cjs' });
    expect(loadInNewProcess(file, cacheDir)).toEqual({ cache: 'used', name: 'module.cjs' });
  });

  it('loads without a cache when none is configured or the directory cannot be created (no hang)', () => {
    const file = writeModule(temporaryDirectory());
    expect(requireWithCodeCache(file, { cacheDir: null }).cache).toBe('off');
    // Node 20's mkdirSync(…, { recursive: true }) never returns for this path.
    const unwritable = requireWithCodeCache(file, { cacheDir: '/proc/flotilla-nonexistent/cache' });
    expect(unwritable.cache).toBe('off');
    expect((unwritable.exports as { name: string }).name).toBe('module.cjs');
  });
});
