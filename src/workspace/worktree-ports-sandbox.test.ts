import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { createRecordingLogger } from '../logging/logger.ts';
import { createValidationWrapper } from '../runtimes/shared/build-agent-sandbox-request.ts';
import { createSandbox } from '../sandbox/create-sandbox.ts';
import { buildPortEnv } from './build-port-env.ts';
import { createPortAllocator } from './create-port-allocator.ts';
import { createWorktreeManager, type Worktree } from './create-worktree-manager.ts';
import { extractPatch } from './extract-patch.ts';
import { runValidationCommands } from './validation/run-validation-commands.ts';

// Issue #30's acceptance: two agents' validation commands each start a server on $FLOTILLA_PORT at the same
// time without a clash; a `.env` listed in worktree.copy is in every worktree and never in a patch. Real git,
// the real bubblewrap sandbox (and, as a control, no sandbox: one network for both, where a shared port
// would clash).

/** Serves the worktree's name on $FLOTILLA_PORT (127.0.0.1) until killed. */
const SERVER = `import http from 'node:http';
http.createServer((_, res) => res.end(process.argv[2])).listen(Number(process.env.FLOTILLA_PORT), '127.0.0.1');
`;
/** Asks $FLOTILLA_PORT until the server answers (5 s at most); fails unless it answers with argv[2]. */
const CHECK = `import http from 'node:http';
const want = process.argv[2];
const ask = (left) => http.get({ host: '127.0.0.1', port: Number(process.env.FLOTILLA_PORT) }, (res) => {
  let body = ''; res.on('data', (c) => { body += c; });
  res.on('end', () => { console.log('answered:', body); process.exit(body === want ? 0 : 1); });
}).on('error', (e) => { if (left === 0) { console.log(e.message); process.exit(1); } setTimeout(() => ask(left - 1), 50); });
ask(100);
`;
// The server holds its port for the whole command (the other worktree's runs meanwhile); the check must see
// this worktree's own server, and .env must be there.
const COMMAND =
  'name=$(basename "$PWD"); node server.mjs "$name" & node check.mjs "$name" && sleep 1 && node check.mjs "$name" && test -f .env && echo "env: $(cat .env)"';

describe('per-worktree ports and copied files, validation in the sandbox', () => {
  let repo: TempGitRepo;
  const outside = createTempDir('flotilla-ports-e2e-');

  beforeEach(async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', {
      '.gitignore': '.worktrees/\n.flotilla/\n', // .env is not ignored: only worktree.copy keeps it out
      'server.mjs': SERVER,
      'check.mjs': CHECK,
    });
    await repo.write({ '.env': 'TOKEN_FOR_TESTS=local\n' });
  });
  afterEach(() => repo.cleanup());

  async function runBoth(sandboxed: boolean) {
    const worktrees = createWorktreeManager({
      repoRoot: repo.root,
      defaultBranch: 'main',
      setupCommand: 'none',
      logger: createRecordingLogger(),
      copy: ['.env'],
      ports: createPortAllocator({ dir: join(repo.root, '.flotilla', 'ports'), count: 10 }),
    });
    const [a, b] = await Promise.all([worktrees.create('agent/a'), worktrees.create('agent/b')]);
    const sandbox = sandboxed
      ? createSandbox(
          { mode: 'on', networkAllow: [], passEnv: [], allowRead: [repo.root], denyRead: [] },
          { homeDir: outside.path },
        )
      : undefined;
    const validate = async (worktree: Worktree) => {
      const lines: string[] = [];
      const runStateDir = join(repo.root, '.flotilla', 'runs', worktree.branchName.replace('/', '-'));
      await mkdir(runStateDir, { recursive: true });
      return runValidationCommands({
        commands: [COMMAND],
        cwd: worktree.path,
        timeoutMs: 60_000,
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...buildPortEnv(worktree.ports) },
        signal: new AbortController().signal,
        onProgress: (line) => lines.push(line),
        wrap: createValidationWrapper(sandbox, {
          repoRoot: repo.root,
          worktree: worktree.path,
          runStateDir,
        }),
      }).then((outcome) => ({ outcome, lines }));
    };
    const results = await Promise.all([validate(a), validate(b)]);
    return { worktrees, a, b, results };
  }

  it.each([
    ['in the sandbox', true],
    ['without a sandbox (one network for both)', false],
  ])(
    '%s: both servers run at once on their own ports; .env is there and never in the patch',
    async (_, sandboxed) => {
      const { worktrees, a, b, results } = await runBoth(sandboxed);
      expect(a.ports).toHaveLength(10);
      expect(b.ports?.some((port) => a.ports?.includes(port))).toBe(false);
      for (const { outcome } of results) {
        expect(outcome.passed ? 'passed' : `${outcome.failure.reason}: ${outcome.failure.output}`).toBe(
          'passed',
        );
      }
      for (const worktree of [a, b]) {
        expect(existsSync(join(worktree.path, '.env'))).toBe(true);
        await repo.write(
          { '.env': 'TOKEN_FOR_TESTS=edited by the agent\n', 'feature.txt': 'work\n' },
          worktree.path,
        );
        const patch = await extractPatch({
          worktreePath: worktree.path,
          baseCommit: worktree.baseCommit,
          ...(worktree.localFiles !== undefined && { localFiles: worktree.localFiles }),
        });
        expect(patch).toContain('b/feature.txt');
        expect(patch).not.toContain('.env');
      }
      await worktrees.remove(a.branchName);
      await worktrees.remove(b.branchName);
      // Released with the worktrees.
      expect(
        await createPortAllocator({ dir: join(repo.root, '.flotilla', 'ports'), count: 10 }).reap([]),
      ).toEqual([]);
    },
  );

  it('a validation command whose port is taken fails: the check sees another server (the clash the ports avoid)', async () => {
    // Both worktrees given the same port, no sandbox: the second server cannot bind, its check reads the
    // first's answer and fails. This is what FLOTILLA_PORT per worktree prevents.
    const worktrees = createWorktreeManager({
      repoRoot: repo.root,
      defaultBranch: 'main',
      setupCommand: 'none',
      logger: createRecordingLogger(),
      copy: ['.env'],
    });
    const [a, b] = await Promise.all([worktrees.create('agent/c'), worktrees.create('agent/d')]);
    const shared = await createPortAllocator({ dir: join(outside.path, 'ports'), count: 1 }).allocate('x');
    const run = (worktree: Worktree) =>
      runValidationCommands({
        commands: [COMMAND],
        cwd: worktree.path,
        timeoutMs: 60_000,
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...buildPortEnv(shared) },
        signal: new AbortController().signal,
      });
    const outcomes = await Promise.all([run(a), run(b)]);
    expect(outcomes.filter((outcome) => !outcome.passed).length).toBeGreaterThan(0);
    await worktrees.remove(a.branchName);
    await worktrees.remove(b.branchName);
  });
});
