import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Memory } from '../../domain/index.ts';
import { CliError } from './cli-error.ts';

/**
 * `flotilla memory edit <id>` without `--text`: the memory's text in `$VISUAL` / `$EDITOR` (default `vi`), in
 * `.flotilla/memory-edits/<id>.md` for the editor's run only. Returns what the file holds afterwards (the caller
 * checks it like `--text`); throws a CliError (exit 1) when the editor fails, and the memory stays as it was.
 */
export async function editMemoryInEditor(
  memory: Memory,
  stateDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const dir = join(stateDir, 'memory-edits');
  const file = join(dir, `${memory.id}.md`);
  await mkdir(dir, { recursive: true });
  await writeFile(file, `${memory.text}\n`, { mode: 0o600 });
  try {
    const editor = env.VISUAL || env.EDITOR || 'vi';
    // Through the shell, as for proposals: editors are often configured with arguments (`code --wait`).
    const run = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit', env });
    if (run.error !== undefined || run.status !== 0) {
      throw new CliError(
        `the editor (${editor}) failed${run.status === null ? '' : ` with exit ${run.status}`}; memory ${memory.id} was not changed`,
        { exitCode: 1 },
      );
    }
    return await readFile(file, 'utf8');
  } finally {
    await rm(file, { force: true });
  }
}
