// Builds the web dashboard (web/README.md) into dist/web/ — or the directory given as the first argument
// (tests build their own): web/src/main.tsx bundled by esbuild with Preact, minified, plus web/index.html
// and web/src/app.css. Everything is local: no CDN, works offline. Run by scripts/build-dist.js.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildWeb(outdir = join(root, 'dist', 'web')) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [join(root, 'web', 'src', 'main.tsx')],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  copyFileSync(join(root, 'web', 'index.html'), join(outdir, 'index.html'));
  copyFileSync(join(root, 'web', 'src', 'app.css'), join(outdir, 'app.css'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildWeb(process.argv[2]);
}
