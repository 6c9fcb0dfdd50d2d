import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Where citations are looked for: code and its READMEs, the benches, the tests, the docs they cite. */
const SCANNED_ROOTS = ['src', 'bench', 'test', 'scripts', 'docs', 'bin'];
const CODE_FILE = /\.(?:ts|tsx|js|mjs|cjs)$/;

/**
 * A `.md` path as prose writes it (letters, digits, `_ . / -`; a leading `./` or `../` is kept), unless it is a
 * command's argument (`--file answers.md`: the user's file).
 */
const MD_PATH = /(?<![\w./-]|--file )((?:\.{1,2}\/)?\w[\w./-]*\.md)\b/g;
/**
 * A seed named by number (the word, then three digits starting with 0): the seeds are not in the repository,
 * so such a line must cite docs/runtime-spec.md too (docs/runtime-spec.md itself names them freely).
 */
const SEED = /\bseed[ -]?0\d\d\b/gi;
/** Design documents named without `.md` (as "<name> §8"): outside the repository too. */
const BARE_DESIGN_DOCUMENT = /\b(?:reference-behaviour|claude-sdk-facts|sandbox-facts)\b(?!\.md)/g;

/**
 * Paths that name files in the repository an agent works on, not documents of ours: the agent definitions and
 * instruction files the runtimes read, specs, and the file the scripted dry run's implementor writes. Placeholders (`<role>.md`, `{name}.md`) never match MD_PATH.
 */
const USER_REPOSITORY_PATH =
  /^(?:\.claude\/|docs\/specs\/|specs\/)|^(?:CLAUDE|AGENTS|GEMINI|CONVENTIONS)\.md$|^docs\/flotilla-dry-run\.md$/;

export interface CitationProblem {
  /** Repository-relative path of the citing file. */
  file: string;
  line: number;
  cited: string;
  text: string;
}

/**
 * Every citation of a document that is not in the repository: a `.md` path in a comment of a code file or in
 * a markdown file that resolves neither from the citing file's folder nor from the repository root; a seed
 * named by number on a line that does not cite docs/runtime-spec.md; a design document named without its path.
 */
export function findCitationProblems(repoRoot: string): CitationProblem[] {
  const files = [
    ...readdirSync(repoRoot).filter((name) => name.endsWith('.md')),
    ...SCANNED_ROOTS.flatMap((root) => listFiles(repoRoot, root)),
  ].filter((file) => CODE_FILE.test(file) || file.endsWith('.md'));
  const problems: CitationProblem[] = [];
  for (const file of files) {
    const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n');
    const prose = file.endsWith('.md') ? lines : commentTexts(lines);
    prose.forEach((text, index) => {
      if (text === null) return;
      for (const [, cited] of text.matchAll(MD_PATH)) {
        if (cited === undefined || USER_REPOSITORY_PATH.test(cited)) continue;
        const resolves = [join(repoRoot, dirname(file), cited), join(repoRoot, cited)].some((path) =>
          existsSync(path),
        );
        if (!resolves) problems.push({ file, line: index + 1, cited, text: text.trim() });
      }
      if (file !== 'docs/runtime-spec.md' && !text.includes('runtime-spec.md'))
        for (const [seed] of text.matchAll(SEED))
          problems.push({ file, line: index + 1, cited: seed, text: text.trim() });
      for (const [name] of text.matchAll(BARE_DESIGN_DOCUMENT))
        problems.push({ file, line: index + 1, cited: name, text: text.trim() });
    });
  }
  return problems;
}

/** Repository-relative paths of the files under `root`, without node_modules and build output. */
function listFiles(repoRoot: string, root: string): string[] {
  const dir = join(repoRoot, root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('node_modules'));
}

/**
 * The comment text of each line of a code file (null: none): `//` comments, from the `//` on, and the lines of
 * `/* … *\/` blocks. Strings and code are not read: they hold paths of the repositories the tests and agents
 * work in, not citations.
 */
function commentTexts(lines: readonly string[]): (string | null)[] {
  let inBlock = false;
  return lines.map((line) => {
    const trimmed = line.trim();
    if (inBlock) {
      if (trimmed.includes('*/')) inBlock = false;
      return line;
    }
    if (trimmed.startsWith('/*')) {
      inBlock = !trimmed.includes('*/');
      return line;
    }
    const slashes = trimmed.startsWith('//') ? line.indexOf('//') : line.search(/\s\/\/\s/);
    return slashes === -1 ? null : line.slice(slashes);
  });
}
