import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHubTestProvider } from '../../../../test/support/github/create-github-test-provider.ts';
import {
  buildContractAddPatch,
  CONTRACT_BASE_FILES,
} from '../../../../test/support/provider-contract/provider-contract-suite.ts';
import { buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { assembleAgentContext } from '../../../engine/context-assembly/assemble-agent-context.ts';
import { silentLogger } from '../../../logging/logger.ts';
import { createWorktreeManager } from '../../../workspace/create-worktree-manager.ts';

/**
 * `Provider.workBase` on GitHub (issue #30): runs start from what GitHub has, not from the clone's default
 * branch, which GitHub's merges and humans' pushes leave behind; a rework's previous revision (pushed from
 * Flotilla's mirror, never in the clone) is fetched so its worktree can rebase it. Against the fake GitHub,
 * real git, and the real worktree manager with spares prepared ahead.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GIT_HEAVY_MS = 90_000;
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

async function setup() {
  const clone = await mkdtemp(join(tmpdir(), 'flotilla-work-base-'));
  cleanups.push(() => rm(clone, { recursive: true, force: true }));
  const test = await createGitHubTestProvider({ baseFiles: CONTRACT_BASE_FILES }, { repoRoot: clone });
  cleanups.push(test.cleanup);
  const git = (args: string[], cwd = clone) =>
    execFileSync('git', args, {
      cwd,
      env: { ...process.env, ...GIT_ENV },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  git(['clone', '--quiet', test.github.gitUrl, '.']);
  const worktrees = createWorktreeManager({
    repoRoot: clone,
    defaultBranch: 'main',
    setupCommand: 'none',
    logger: silentLogger,
    prepareAhead: true,
  });
  cleanups.push(() => worktrees.settle());
  const { workBase } = test.provider;
  if (workBase === undefined) throw new Error('the GitHub provider with a repoRoot has no workBase');
  return { ...test, clone, git, worktrees, workBase };
}

describe('runs on GitHub start from its default branch', () => {
  it(
    'fetches the moved default branch and hands out no spare prepared on the stale one',
    async () => {
      const { github, git, clone, worktrees, workBase } = await setup();
      const cloned = git(['rev-parse', 'main']);
      // A spare made ahead at the clone's main; then main moves on GitHub.
      worktrees.prepareSpare();
      await worktrees.idle();
      const moved = await github.human.commitFiles({ 'NEWS.md': 'news\n' }, 'Main moves on');

      const { defaultBranchHead } = await workBase.sync([]);
      expect(defaultBranchHead).toBe(moved);
      const worktree = await worktrees.create('agent/run-1', { start: { from: defaultBranchHead } });
      expect(worktree.baseCommit).toBe(moved);
      expect(readFileSync(join(worktree.path, 'NEWS.md'), 'utf8')).toBe('news\n');
      // The user's branch and checkout are left as they were: only Flotilla's refs moved.
      expect(git(['rev-parse', 'main'])).toBe(cloned);
      expect(existsSync(join(clone, 'NEWS.md'))).toBe(false);
      await worktrees.remove(worktree.branchName);

      // The spares made after it start from the fetched head too.
      await worktrees.idle();
      const next = await worktrees.create('agent/run-2');
      expect(next.baseCommit).toBe(moved);
    },
    GIT_HEAVY_MS,
  );

  it(
    "fetches a rework's previous revision so its worktree rebases it onto the moved default branch",
    async () => {
      const { github, provider, git, worktrees, workBase } = await setup();
      const item = await provider.workItemWriter.createWorkItem({
        title: 'one',
        body: '',
        labels: [],
        blockedBy: [],
      });
      const revision = await provider.revisionWriter.createFromPatch({
        workItemID: item.id,
        patch: buildContractAddPatch('src/one.ts', "export const one = 'one';\n"),
        branchName: `flotilla/${item.id}`,
        title: 'one',
        body: 'The change.',
      });
      const moved = await github.human.commitFiles({ 'NEWS.md': 'news\n' }, 'Main moves on');
      const missing = () => {
        try {
          git(['cat-file', '-e', `${revision.headSHA}^{commit}`]);
          return false;
        } catch {
          return true;
        }
      };
      expect(missing()).toBe(true);

      const { defaultBranchHead } = await workBase.sync([revision.headRef]);
      expect(defaultBranchHead).toBe(moved);
      expect(missing()).toBe(false);
      const worktree = await worktrees.create('agent/rework', {
        start: { from: defaultBranchHead, rebase: revision.headSHA },
      });
      expect(worktree.baseCommit).toBe(moved);
      expect(worktree.notes ?? []).toEqual([]);
      expect(readFileSync(join(worktree.path, 'src/one.ts'), 'utf8')).toBe("export const one = 'one';\n");
      expect(readFileSync(join(worktree.path, 'NEWS.md'), 'utf8')).toBe('news\n');
    },
    GIT_HEAVY_MS,
  );

  it(
    "starts a reviewer's worktree with the revision on top of GitHub's moved main, a planner's at that main",
    async () => {
      const { github, provider, worktrees, workBase } = await setup();
      const item = await provider.workItemWriter.createWorkItem({
        title: 'two',
        body: '',
        labels: [],
        blockedBy: [],
      });
      const revision = await provider.revisionWriter.createFromPatch({
        workItemID: item.id,
        patch: buildContractAddPatch('src/two.ts', "export const two = 'two';\n"),
        branchName: `flotilla/${item.id}`,
        title: 'two',
        body: 'The change.',
      });
      // After the clone: the spec is merged on GitHub and main moves, the clone's main stays behind.
      const moved = await github.human.commitFiles({ 'docs/specs/s.md': '# Spec, as merged\n' }, 'Spec');
      const deps = {
        getState: () =>
          buildTestState({ workItems: [{ ...item, linkedRevision: revision.id }], revisions: [revision] }),
        workItemReader: provider.workItemReader,
        revisionReader: provider.revisionReader,
        specReader: provider.specReader,
        syncWorkBase: (branches: readonly string[]) => workBase.sync(branches),
      };
      const reviewer = await assembleAgentContext(
        { role: 'reviewer', sessionID: 'r1', workItemID: item.id, revisionID: revision.id },
        deps,
      );
      if (reviewer.role !== 'reviewer' || reviewer.start === undefined) throw new Error('no reviewer start');
      const reviewed = await worktrees.create('agent/reviewer/r1', { start: reviewer.start, setup: false });
      expect(reviewed.notes ?? []).toEqual([]);
      expect(readFileSync(join(reviewed.path, 'src/two.ts'), 'utf8')).toBe("export const two = 'two';\n");
      expect(readFileSync(join(reviewed.path, 'docs/specs/s.md'), 'utf8')).toBe('# Spec, as merged\n');
      await worktrees.remove(reviewed.branchName);

      const planner = await assembleAgentContext(
        { role: 'planner', sessionID: 'p1', specPaths: [], specSHAs: {} },
        deps,
      );
      if (planner.role !== 'planner' || planner.start === undefined) throw new Error('no planner start');
      const planned = await worktrees.create('agent/planner/p1', { start: planner.start, setup: false });
      expect(planned.baseCommit).toBe(moved);
      expect(readFileSync(join(planned.path, 'docs/specs/s.md'), 'utf8')).toBe('# Spec, as merged\n');
      expect(existsSync(join(planned.path, 'src/two.ts'))).toBe(false);
    },
    GIT_HEAVY_MS,
  );

  it(
    'leaves out a branch that is gone or whose name could rewrite another ref, and still fetches main',
    async () => {
      const { github, git, workBase } = await setup();
      const moved = await github.human.commitFiles({ 'NEWS.md': 'news\n' }, 'Main moves on');
      const cloned = git(['rev-parse', 'main']);
      const answers = await Promise.all([
        workBase.sync(['flotilla/404']),
        workBase.sync(['x:refs/heads/main', '--upload-pack=touch']),
      ]);
      expect(answers.map((answer) => answer.defaultBranchHead)).toEqual([moved, moved]);
      expect(git(['rev-parse', 'main'])).toBe(cloned);
      expect(git(['for-each-ref', '--format=%(refname)', 'refs/flotilla/'])).toBe(
        'refs/flotilla/upstream/main',
      );
    },
    GIT_HEAVY_MS,
  );
});
