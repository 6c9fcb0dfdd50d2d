import type { Revision } from './revision.ts';

/**
 * How a revision is named to people, never to be mistaken for a work item's `#7` (items and revisions share
 * one number space): `r8` for a local revision, `PR #8` for a GitHub pull request (whose number is GitHub's
 * own, as the web page shows it). A revision known only by id is a local one; an id that is not a number
 * (test fixtures) is shown as it is.
 */
export function revisionName(revision: Pick<Revision, 'id'> & { url?: string | null }): string {
  if (!/^[0-9]+$/.test(revision.id)) return revision.id;
  return revision.url ? `PR #${revision.id}` : `r${revision.id}`;
}
