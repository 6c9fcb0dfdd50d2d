/** A token that names a file: a path with a directory or an extension, not a URL, no spaces. */
// A bare name needs two characters before its extension, so prose like "e.g." is not a file.
const PATH_LIKE = /^(?!.*:\/\/)(?:[\w@-][\w.@-]+\.[A-Za-z0-9]{1,10}|[\w.@-]+(?:\/[\w.@-]+)+\/?)$/;

/**
 * A `## Spec Reference` section (the planner's item format): the spec an item implements is read, not
 * written; counted, it made every item of one spec overlap every other, and ran them one at a time.
 */
const SPEC_REFERENCE = /^#{1,6}\s*spec references?\s*$[\s\S]*?(?=^#{1,6}\s|(?![\s\S]))/gim;

/**
 * File names too common to say which file an item means ("update the README", "the tests"): never matched
 * against the tree by name alone.
 */
const GENERIC_NAMES = new Set([
  'index',
  'main',
  'test',
  'tests',
  'readme',
  'package',
  'config',
  'utils',
  'types',
]);

/** A word or a file's base name as it is compared: lower case, letters and digits only ("wordCount" = "word-count"). */
function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Which files a run will touch, before it runs (issue #30 §4): a rework's revision files are known; else the
 * files the item's text names (the planner's items list them under "In Scope"), backticked or bare, but not
 * the spec its `## Spec Reference` section names; else, when the text names no file, the repository's files
 * whose base name the text uses as a word (`export wordCount` → `src/wordcount.js`, `src/word-count.ts`).
 * Null when nothing is known: such a run is never held back for a conflict.
 */
export function estimateTouchedFiles(input: {
  body: string;
  revisionFiles: readonly string[];
  /** The repository's tracked files; absent or empty: no matching by name. */
  repositoryFiles?: readonly string[];
}): string[] | null {
  const files = new Set(input.revisionFiles);
  const text = input.body.replace(SPEC_REFERENCE, '');
  for (const raw of text.split(/[\s`'"()[\]<>,;]+/)) {
    const token = raw.replace(/^\.\//, '').replace(/[.:!?]+$/, '');
    if (token.length < 3 || token.startsWith('/') || token.includes('..')) continue;
    if (PATH_LIKE.test(token)) files.add(token.replace(/\/$/, ''));
  }
  if (files.size === 0)
    for (const file of matchFilesByName(text, input.repositoryFiles ?? [])) files.add(file);
  return files.size === 0 ? null : [...files].sort();
}

/** The files whose base name (without its extensions) the text uses as a word of at least four characters. */
function matchFilesByName(text: string, repositoryFiles: readonly string[]): string[] {
  if (repositoryFiles.length === 0) return [];
  const words = new Set(
    (text.match(/[A-Za-z][\w-]*/g) ?? []).map(normalizeName).filter((word) => word.length >= 4),
  );
  return repositoryFiles.filter((file) => {
    const base = file.slice(file.lastIndexOf('/') + 1).replace(/\..*$/, '');
    const name = normalizeName(base);
    return name.length >= 4 && !GENERIC_NAMES.has(name) && words.has(name);
  });
}

/** The first path two sets share: a file, or a directory one names and the other has a file in. */
export function findSharedPath(a: readonly string[], b: readonly string[]): string | null {
  for (const left of a) {
    for (const right of b) {
      if (left === right || right.startsWith(`${left}/`)) return right;
      if (left.startsWith(`${right}/`)) return left;
    }
  }
  return null;
}
