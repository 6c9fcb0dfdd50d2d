// Builds dist/: the compiled JavaScript bin/flotilla.js runs, plus the JSON files the code reads at runtime
// (the demo's scenario, sample scenarios) and the web dashboard's bundle (dist/web/, scripts/build-web.js).
// Run by `npm run build` and by `prepare` (so `npm ci`, `npm install` and `npm pack` produce it). The stamp's time is the build's start, so a source saved during the build makes
// dist/ stale rather than current.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from './build-web.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'src');
const dist = join(root, 'dist');
// Test-only material (bin/flotilla.js skips the same directories when it checks dist/ is current).
const SKIPPED_DIRECTORIES = new Set(['fixtures']);

const started = new Date();
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  process.stderr.write('build-dist: tsc failed; dist/ not built\n');
  process.exit(compiled.status ?? 1);
}

let assets = 0;
copyAssets(source);
// The web dashboard (web/README.md), which `flotilla serve` serves at /.
await buildWeb(join(dist, 'web'));
const stamp = join(dist, 'build-stamp.json');
writeFileSync(stamp, `${JSON.stringify({ builtAt: started.toISOString(), assets }, null, 2)}\n`);
utimesSync(stamp, started, started);

function copyAssets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) copyAssets(path);
    } else if (entry.name.endsWith('.json')) {
      const target = join(dist, path.slice(source.length));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(path, target);
      assets += 1;
    }
  }
}
