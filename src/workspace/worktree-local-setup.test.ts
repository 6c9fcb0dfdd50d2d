import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { createRecordingLogger } from '../logging/logger.ts';
import { createPortAllocator } from './create-port-allocator.ts';
import { createWorktreeManager, type WorktreeManagerOptions } from './create-worktree-manager.ts';
import { extractPatch } from './extract-patch.ts';

// worktree.copy, worktree.teardownCommand, worktree.ports and the run's lock, on a real repository.
describe('worktree set-up that matches the repository', () => {
  let repo: TempGitRepo;

  beforeEach(async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', {
      'README.md': '# Project\n',
      '.gitignore': '/.env\n.worktrees/\n.flotilla/\n', // nested .env files are not ignored
      'config/local.json': '{"tracked": true}\n',
    });
    // The main checkout's local files: an ignored .env, a changed tracked config, a nested glob match.
    await repo.write({
      '.env': 'SECRET_FOR_TESTS=1\n',
      'config/local.json': '{"tracked": "locally changed"}\n',
      'services/api/.env': 'API=1\n',
      'notes.txt': 'not listed\n',
    });
  });
  afterEach(() => repo.cleanup());

  const manager = (overrides: Partial<WorktreeManagerOptions> = {}) => {
    const logger = createRecordingLogger();
    const worktrees = createWorktreeManager({
      repoRoot: repo.root,
      defaultBranch: 'main',
      setupCommand: 'none',
      logger,
      copy: ['.env', 'config/local.json', '**/.env'],
      ...overrides,
    });
    return { worktrees, logger };
  };

  it('copies the listed files into every worktree, spares included, and keeps them out of the patch', async () => {
    const { worktrees } = manager({ prepareAhead: true });
    worktrees.prepareSpare();
    await worktrees.idle();
    const worktree = await worktrees.create('flotilla/1');
    expect(worktree.branchName).toMatch(/^agent\/ahead\//); // the spare, prepared before the run
    expect(await readFile(join(worktree.path, '.env'), 'utf8')).toBe('SECRET_FOR_TESTS=1\n');
    expect(await readFile(join(worktree.path, 'services/api/.env'), 'utf8')).toBe('API=1\n');
    expect(await readFile(join(worktree.path, 'config/local.json'), 'utf8')).toContain('locally changed');
    expect(existsSync(join(worktree.path, 'notes.txt'))).toBe(false);
    expect(worktree.localFiles).toEqual(['.env', 'config/local.json', '**/.env']);

    // The agent edits the local files too, and adds a new one matching a glob, besides its real work.
    await writeFile(join(worktree.path, '.env'), 'SECRET_FOR_TESTS=changed by the agent\n');
    await writeFile(join(worktree.path, 'config/local.json'), '{"agent": true}\n');
    await repo.write(
      { 'web/.env': 'NEW=1\n', 'src/feature.ts': 'export const feature = 1;\n' },
      worktree.path,
    );
    const patch = await extractPatch({
      worktreePath: worktree.path,
      baseCommit: worktree.baseCommit,
      ...(worktree.localFiles !== undefined && { localFiles: worktree.localFiles }),
    });
    expect(patch).toContain('src/feature.ts');
    expect(patch).not.toContain('.env');
    expect(patch).not.toContain('config/local.json');
    // Without the patterns the same worktree's patch would carry them: the exclusion is what keeps them out.
    const unfiltered = await extractPatch({ worktreePath: worktree.path, baseCommit: worktree.baseCommit });
    expect(unfiltered).toContain('a/config/local.json');
    expect(unfiltered).toContain('b/web/.env');
    await worktrees.remove(worktree.branchName);
    await worktrees.settle();
  });

  it('locks a run’s worktree while it exists and still removes it', async () => {
    const { worktrees } = manager();
    const worktree = await worktrees.create('flotilla/2');
    const listing = await repo.git(['worktree', 'list', '--porcelain']);
    expect(listing).toContain(`worktree ${worktree.path}`);
    expect(listing).toMatch(/locked flotilla: agent run in progress/);
    await worktrees.remove(worktree.branchName);
    expect(existsSync(worktree.path)).toBe(false);
  });

  it('runs the teardown command before removal, and a failing one does not block it', async () => {
    const marker = join(repo.root, 'teardown-ran.txt');
    const ports = createPortAllocator({ dir: join(repo.root, '.flotilla', 'ports'), count: 2 });
    const withPorts = manager({
      teardownCommand: `pwd > ${marker}; echo "$FLOTILLA_PORT" >> ${marker}`,
      ports,
    });
    const worktree = await withPorts.worktrees.create('flotilla/3');
    await withPorts.worktrees.remove(worktree.branchName);
    const [ranIn, port] = (await readFile(marker, 'utf8')).trim().split('\n');
    expect(ranIn).toBe(worktree.path);
    expect(port).toBe(String(worktree.ports?.[0]));
    expect(existsSync(worktree.path)).toBe(false);

    const failing = manager({ teardownCommand: 'echo boom >&2; exit 3' });
    const second = await failing.worktrees.create('flotilla/4');
    await failing.worktrees.remove(second.branchName);
    expect(existsSync(second.path)).toBe(false);
    expect(failing.logger.records.some((entry) => /teardown command failed/.test(entry.message))).toBe(true);
  });

  it('gives each worktree its own block of ports, passes them to setup, and releases them on removal', async () => {
    const dir = join(repo.root, '.flotilla', 'ports');
    const { worktrees } = manager({
      ports: createPortAllocator({ dir, count: 3 }),
      setupCommand: 'echo "$FLOTILLA_PORT $FLOTILLA_PORT_1 $FLOTILLA_PORT_2" > ports.txt',
    });
    const [a, b] = await Promise.all([worktrees.create('flotilla/5'), worktrees.create('flotilla/6')]);
    expect(a.ports).toHaveLength(3);
    expect(b.ports).toHaveLength(3);
    expect(new Set([...(a.ports ?? []), ...(b.ports ?? [])]).size).toBe(6);
    expect((await readFile(join(a.path, 'ports.txt'), 'utf8')).trim()).toBe(a.ports?.join(' '));
    // A restarted process (a new allocator on the same directory) does not hand out the same ports.
    const restarted = createPortAllocator({ dir, count: 3 });
    const third = await restarted.allocate('/elsewhere');
    expect(third.some((port) => a.ports?.includes(port) || b.ports?.includes(port))).toBe(false);
    await worktrees.remove(a.branchName);
    await worktrees.remove(b.branchName);
    // Released: the start-up reap of the restarted process keeps only what is still owned.
    expect(await restarted.reap([])).toEqual(third);
  });
});
