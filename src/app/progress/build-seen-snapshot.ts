import type { EngineState } from '../../engine/state-store/engine-state.ts';

/**
 * What the last `flotilla run` had seen of the tracker when it stopped: each work item's status, each
 * revision's checks, each spec's status and content. The next run compares its first sync against it, so
 * its start-up lines report only what changed in between (issue #31 point 5).
 */
export interface SeenSnapshot {
  workItems: Record<string, string>;
  revisions: Record<string, string>;
  /** Spec path → `<frontmatter status> <blob SHA>`. */
  specs: Record<string, string>;
}

/** The snapshot of what `state` holds now. */
export function buildSeenSnapshot(state: EngineState): SeenSnapshot {
  const workItems: Record<string, string> = {};
  for (const [id, item] of Object.entries(state.workItems)) workItems[id] = item.status;
  const revisions: Record<string, string> = {};
  for (const [id, revision] of Object.entries(state.revisions))
    revisions[id] = revision.pipeline?.status ?? 'none';
  const specs: Record<string, string> = {};
  for (const [path, spec] of Object.entries(state.specs))
    specs[path] = `${spec.frontmatterStatus} ${spec.blobSHA}`;
  return { workItems, revisions, specs };
}
