import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCitationProblems } from './find-cited-documents.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A throwaway tree with `files`, scanned as if it were the repository. */
async function problemsIn(files: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), 'flotilla-citations-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    return findCitationProblems(root)
      .map(({ file, line, cited }) => `${file}:${line} ${cited}`)
      .sort();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

describe('cited documents', () => {
  it('every document a comment or README cites is in the repository (docs/ holds what the code relies on)', () => {
    const problems = findCitationProblems(REPO_ROOT).map(
      ({ file, line, cited, text }) => `${file}:${line} cites ${cited}: ${text}`,
    );
    expect(problems, 'move what the code relies on into docs/ and cite it there').toEqual([]);
  });

  it('finds a missing .md in a comment or a README, a seed by number and a design document by bare name', async () => {
    expect(
      await problemsIn({
        'src/a.ts': [
          '/** As the SDK does (claude-sdk-facts.md §Hooks). */',
          "const path = 'not-a-citation.md'; // a string, not a comment",
          '// the context formats of seed 001',
          '// the transcript format (reference-behaviour §9)',
        ].join('\n'),
        'src/README.md': 'See `docs/gone.md`.\n',
        'bench/b.ts': '// architecture.md §CLI\n',
        'test/c.test.ts': '/* Seed 003 "Validation Loop" */\n',
      }),
    ).toEqual([
      'bench/b.ts:1 architecture.md',
      'src/README.md:1 docs/gone.md',
      'src/a.ts:1 claude-sdk-facts.md',
      'src/a.ts:3 seed 001',
      'src/a.ts:4 reference-behaviour',
      'test/c.test.ts:1 Seed 003',
    ]);
  });

  it('accepts a path that resolves from the citing folder or the root, docs/runtime-spec.md, and user-repository paths', async () => {
    expect(
      await problemsIn({
        'docs/claude-sdk-facts.md': '# facts\n',
        'docs/runtime-spec.md': '## Seed 001: the adapter\n',
        'src/x/README.md': 'Like `../y/README.md` and `docs/claude-sdk-facts.md` §Hooks.\n',
        'src/y/README.md': '# y\n',
        'src/a.ts': [
          '// seed 001 (docs/runtime-spec.md §Context Assembly)',
          '// reads `.claude/agents/<role>.md`, `.claude/CLAUDE.md`, AGENTS.md and `docs/specs/login.md`',
          '// `flotilla answer 3 --file answers.md`',
        ].join('\n'),
      }),
    ).toEqual([]);
  });
});
