import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../../../process/run-command.ts';
import { APPLY_SCRATCH_PREFIX, localScratchDir } from '../../shared/local-scratch-dir.ts';

const GIT_TIMEOUT_MS = 5 * 60_000;

/**
 * Keeps the bare mirror patches are applied in (pushPatchBranch) from growing without bound. Everything
 * in it but the default branch is scratch: the patch-application dirs a killed run left
 * (`.flotilla/tmp/apply-*`), the branches built there (each push rebuilds its branch from the default
 * branch) and the fetched remote head. They go, then `git gc --prune=now` drops what only they reached,
 * so the mirror stays about the size of the default branch's history. Call only while no patch is being
 * applied in the mirror (the revisions queue one patch at a time). A mirror not created yet is left alone.
 */
export async function maintainMirror(
  mirrorDir: string,
  defaultBranch: string,
): Promise<{ removed: string[] }> {
  const git = (args: string[]) =>
    runGit(args, { cwd: mirrorDir, timeoutMs: GIT_TIMEOUT_MS, env: { GIT_CONFIG_NOSYSTEM: '1' } });
  const isRepository = await git(['rev-parse', '--is-bare-repository']).then(
    (answer) => answer.stdout.trim() === 'true',
    () => false,
  );
  if (!isRepository) return { removed: [] };
  const removed: string[] = [];
  const scratch = localScratchDir(mirrorDir);
  for (const name of await readdir(scratch).catch(() => [] as string[])) {
    if (!name.startsWith(APPLY_SCRATCH_PREFIX)) continue;
    await rm(join(scratch, name), { recursive: true, force: true });
    removed.push(join(scratch, name));
  }
  const { stdout } = await git(['for-each-ref', '--format=%(refname)']);
  const keep = `refs/heads/${defaultBranch}`;
  const stale = stdout.split('\n').filter((ref) => ref !== '' && ref !== keep);
  if (stale.length > 0) {
    await runGit(['update-ref', '--stdin'], {
      cwd: mirrorDir,
      timeoutMs: GIT_TIMEOUT_MS,
      input: stale.map((ref) => `delete ${ref}\n`).join(''),
    });
    removed.push(...stale);
  }
  await git(['worktree', 'prune']);
  await git(['gc', '--quiet', '--prune=now']);
  return { removed };
}
