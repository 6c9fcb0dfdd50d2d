#!/usr/bin/env node
// Launcher: runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci`/`npm install` run
// as `prepare`). In a checkout, where src/ sits next to dist/, a dist/ that is missing or older than any source
// file would run stale code, so the sources run through tsx instead (slower start, always current).
import { readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node ≥ 22.1 keeps V8's compiled code on disk between runs; Node 20 has no such cache.
module.enableCompileCache?.();

/** Left out of dist/ by tsconfig.build.json and scripts/build-dist.js, so their changes cannot make it stale. */
const SKIPPED_DIRECTORIES = new Set(['fixtures']);

const root = fileURLToPath(new URL('..', import.meta.url));
const stampMs = modifiedMs(`${root}dist/build-stamp.json`);
const { runCli } = await (stampMs !== undefined && !sourcesNewerThan(`${root}src`, stampMs)
  ? import('../dist/cli/main.js')
  : importSources());
process.exitCode = await runCli(process.argv);

function modifiedMs(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** True when a source file (tests and READMEs aside) changed after the build; false when there is no src/. */
function sourcesNewerThan(dir, builtMs) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && sourcesNewerThan(path, builtMs)) return true;
    } else if (!/\.test\.tsx?$|\.md$/.test(entry.name) && statSync(path).mtimeMs > builtMs) {
      return true;
    }
  }
  return false;
}

async function importSources() {
  if (modifiedMs(`${root}src/cli/main.ts`) === undefined) {
    process.stderr.write(`flotilla: ${root}dist is missing; run \`npm run build\` in ${root}\n`);
    process.exit(1);
  }
  if (process.stderr.isTTY) {
    process.stderr.write(
      'flotilla: dist/ is missing or older than src/; running the sources through tsx (`npm run build` starts faster)\n',
    );
  }
  const { register } = await import('tsx/esm/api');
  // Flotilla's own tsconfig, not the one in the user's working directory (which would change how our sources,
  // the dashboard's JSX among them, are compiled).
  register({ tsconfig: `${root}tsconfig.json` });
  return import('../src/cli/main.ts');
}
