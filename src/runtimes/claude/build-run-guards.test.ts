import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import type { WorkItemMode } from '../../domain/index.ts';
import {
  buildBashValidatorRules,
  createBashValidatorHook,
  toReadOnlyBashValidatorRules,
} from '../../guards/bash-validator/index.ts';
import { buildRunGuards } from './build-run-guards.ts';

const rules = buildBashValidatorRules({});
const bashValidatorHook = createBashValidatorHook(rules);
const readOnlyBashValidatorHook = createBashValidatorHook(toReadOnlyBashValidatorRules(rules));

/** Writing commands an investigation or refinement agent might try; each must be refused. */
const WRITING_COMMANDS = [
  'rm src/a.ts',
  "sed -i 's/a/b/' src/a.ts",
  'git commit -am fix',
  'git add src/a.ts',
  'git stash',
  'echo fixed > src/a.ts',
  'cat src/a.ts >> notes.md',
  'touch new-file.ts',
  'cp src/a.ts src/b.ts',
  'mv src/a.ts src/c.ts',
  'mkdir out',
  'tee out.txt < src/a.ts',
  'npx vitest run -u',
  'npx prettier --write .',
  'npm install left-pad',
  'find . -name "*.tmp" -delete',
  'sort -o out.txt src/a.ts',
  'git diff --output=patch.diff',
  'grep -rn foo src | xargs sed -i s/foo/bar/',
];

/** What they may do: read the code, its history and run the tests. */
const READING_COMMANDS = [
  'git log --oneline -5',
  'git diff HEAD~1 -- src/a.ts',
  'git show HEAD:src/a.ts',
  'grep -rn "export" src',
  'head -20 src/a.ts 2>/dev/null | tail -5',
  'ls -la src && wc -l src/a.ts',
  'npx vitest run src/a.test.ts',
  'npm test',
  'npm run test -- --reporter=verbose',
  'find src -name "*.ts"',
];

describe('buildRunGuards: the read-only modes never write', () => {
  let repo: TempGitRepo;
  beforeAll(async () => {
    repo = await createTempGitRepo();
    await repo.commit('init', { 'src/a.ts': 'export const a = 1;\n' });
  });
  afterAll(() => repo.cleanup());

  const guardsOf = (mode: WorkItemMode | undefined) =>
    buildRunGuards({
      role: 'implementor',
      mode,
      root: repo.root,
      readOnlyPaths: [],
      deniedPaths: [],
      bashValidatorHook,
      readOnlyBashValidatorHook,
    });
  const bash = (mode: WorkItemMode | undefined, command: string) =>
    guardsOf(mode).bashValidator({ tool_name: 'Bash', tool_input: { command }, cwd: repo.root });

  for (const mode of ['investigate', 'refine'] as const) {
    describe(mode, () => {
      it('refuses the file tools writing in its worktree', async () => {
        const { pathGuard } = guardsOf(mode);
        const file = `${repo.root}/src/a.ts`;
        for (const [tool, input] of [
          ['Write', { file_path: file, content: 'x' }],
          ['Edit', { file_path: file, old_string: 'a', new_string: 'b' }],
          ['MultiEdit', { file_path: file, edits: [] }],
          ['NotebookEdit', { notebook_path: `${repo.root}/n.ipynb`, new_source: 'x' }],
        ] as const) {
          const verdict = await pathGuard({ tool_name: tool, tool_input: input, cwd: repo.root });
          expect(verdict, tool).toMatchObject({ decision: 'block' });
        }
        await expect(
          pathGuard({ tool_name: 'Read', tool_input: { file_path: file }, cwd: repo.root }),
        ).resolves.toEqual({});
      });

      it.each(WRITING_COMMANDS)('refuses the writing command %s', async (command) => {
        const verdict = await bash(mode, command);
        expect(verdict).toMatchObject({ decision: 'block' });
      });

      it.each(READING_COMMANDS)('allows the reading command %s', async (command) => {
        await expect(bash(mode, command)).resolves.toEqual({});
      });
    });
  }

  it('names the read-only mode in the refusal', async () => {
    const verdict = await bash('investigate', 'echo fixed > src/a.ts');
    expect(verdict).toEqual({
      decision: 'block',
      reason:
        "Blocked: this session is read-only (investigate/refine modes): output redirection to 'src/a.ts' writes a file",
    });
  });

  it('lets an implement run write (the same guards, another mode)', async () => {
    const { pathGuard } = guardsOf(undefined);
    const write = { tool_name: 'Write', tool_input: { file_path: `${repo.root}/src/a.ts` }, cwd: repo.root };
    await expect(pathGuard(write)).resolves.toEqual({});
    await expect(bash(undefined, 'echo fixed > src/a.ts')).resolves.toEqual({});
    await expect(bash(undefined, 'git commit -am fix')).resolves.toEqual({});
  });

  it('refuses a read-only run without a read-only validator (fail closed)', () => {
    expect(() =>
      buildRunGuards({
        role: 'implementor',
        mode: 'refine',
        root: repo.root,
        readOnlyPaths: [],
        deniedPaths: [],
        bashValidatorHook,
        readOnlyBashValidatorHook: undefined,
      }),
    ).toThrow('the refine run needs the read-only bash validator, and none is configured (fail closed)');
  });
});
