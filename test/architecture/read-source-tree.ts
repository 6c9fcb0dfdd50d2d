import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SourceFileImports } from './check-dependencies.ts';
import { readImports } from './read-imports.ts';

const SOURCE_FILE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The imports of every source file under `root/folder`, with repository-relative `/` paths. */
export function readSourceTree(root: string, folder: string): SourceFileImports[] {
  const files: SourceFileImports[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const repoPath = relative(root, path).split(sep).join('/');
        files.push({ path: repoPath, imports: readImports(readFileSync(path, 'utf8'), path) });
      }
    }
  };
  walk(join(root, folder));
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
