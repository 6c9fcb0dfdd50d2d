import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable file `name` in `pathEnv`'s directories (as a shell would find it), or undefined. */
export function findOnPath(name: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
