import { resolveFlotillaPaths } from '../../../src/config/index.ts';
import type { WorkItemStatus } from '../../../src/domain/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import {
  createLocalProvider,
  type LocalProvider,
} from '../../../src/providers/local/create-local-provider.ts';

/**
 * Opens the repository's tracker through the local provider (as the engine would), runs `body` and closes it:
 * the set-up of CLI command tests. With a `checksCommand`, checks start but never finish (the tests set each
 * pipeline themselves); closing cancels them.
 */
export async function withLocalProvider<T>(
  repoRoot: string,
  options: { checksCommand: string | null },
  body: (provider: LocalProvider) => Promise<T> | T,
): Promise<T> {
  const paths = resolveFlotillaPaths(repoRoot);
  const provider = createLocalProvider({
    repoRoot,
    defaultBranch: 'main',
    specsDir: 'docs/specs',
    checksCommand: options.checksCommand,
    checksTimeoutMs: 60_000,
    logsDir: paths.logsDir,
    logger: silentLogger,
    dbPath: paths.dbPath,
    ...(options.checksCommand !== null && {
      runChecks: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    }),
  });
  try {
    return await body(provider);
  } finally {
    await provider.close();
  }
}

/** A work item "Add a feature" with a revision made from `patch` on `flotilla/<id>`, moved to `status`. */
export async function createItemWithRevision(
  provider: LocalProvider,
  patch: string,
  status: WorkItemStatus,
): Promise<{ id: string; revisionID: string; headSHA: string }> {
  const item = provider.tracker.workItems.createWorkItem({
    title: 'Add a feature',
    body: '',
    labels: [],
    blockedBy: [],
  });
  const revision = await provider.revisionWriter.createFromPatch({
    workItemID: item.id,
    patch,
    branchName: `flotilla/${item.id}`,
    title: '',
    body: 'done',
  });
  provider.tracker.workItems.transitionStatus(item.id, status);
  return { id: item.id, revisionID: revision.id, headSHA: revision.headSHA };
}
