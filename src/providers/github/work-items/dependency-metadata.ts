/**
 * Work item dependencies live in the issue body as one HTML comment (decree's format, docs/reference-behaviour.md §7), which
 * GitHub does not render: `<!-- flotilla:blockedBy #42 #43 -->`, appended after a blank line. Bodies decree
 * wrote (`decree:blockedBy`) are read too.
 */
const METADATA = /(?:\n\n)?<!-- (?:flotilla|decree):blockedBy((?:\s+#\d+)*)\s*-->/g;

/** The body as stored on GitHub: the description, then the metadata when there are dependencies. */
export function buildIssueBody(description: string, blockedBy: readonly string[]): string {
  if (blockedBy.length === 0) return description;
  return `${description}\n\n<!-- flotilla:blockedBy ${blockedBy.map((id) => `#${id}`).join(' ')} -->`;
}

/** The ids in the body's metadata (the last comment wins), in their order. */
export function parseBlockedBy(body: string): string[] {
  const matches = [...body.matchAll(METADATA)];
  const last = matches.at(-1);
  if (last === undefined) return [];
  return [...(last[1] ?? '').matchAll(/#(\d+)/g)].map((match) => match[1] ?? '');
}

/** The description without the metadata (and the blank line that introduced it). */
export function stripDependencyMetadata(body: string): string {
  return body.replace(METADATA, '');
}
