/** A token that names a file: a path with a directory or an extension, not a URL, no spaces. */
// A bare name needs two characters before its extension, so prose like "e.g." is not a file.
const PATH_LIKE = /^(?!.*:\/\/)(?:[\w@-][\w.@-]+\.[A-Za-z0-9]{1,10}|[\w.@-]+(?:\/[\w.@-]+)+\/?)$/;

/**
 * A `## Spec Reference` section (the planner's item format): the spec an item implements is read, not
 * written; counted, it made every item of one spec overlap every other, and ran them one at a time.
 */
const SPEC_REFERENCE = /^#{1,6}\s*spec references?\s*$[\s\S]*?(?=^#{1,6}\s|(?![\s\S]))/gim;

/**
 * Which files a run will touch, before it runs (issue #30 §4): a rework's revision files are known; else the
 * files the item's text names (the planner's items list them under "In Scope"), backticked or bare, but not
 * the spec its `## Spec Reference` section names. Null when nothing is known: such a run is never held back
 * for a conflict.
 */
export function estimateTouchedFiles(input: {
  body: string;
  revisionFiles: readonly string[];
}): string[] | null {
  const files = new Set(input.revisionFiles);
  for (const raw of input.body.replace(SPEC_REFERENCE, '').split(/[\s`'"()[\]<>,;]+/)) {
    const token = raw.replace(/^\.\//, '').replace(/[.:!?]+$/, '');
    if (token.length < 3 || token.startsWith('/') || token.includes('..')) continue;
    if (PATH_LIKE.test(token)) files.add(token.replace(/\/$/, ''));
  }
  return files.size === 0 ? null : [...files].sort();
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
