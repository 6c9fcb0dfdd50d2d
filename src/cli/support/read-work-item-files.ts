import type { RevisionFile } from '../../domain/index.ts';
import type { Provider } from '../../providers/types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { CliError } from './cli-error.ts';
import { requireProviderItem } from './require-provider-item.ts';

export interface WorkItemFiles {
  revision: { id: string; headRef: string; headSHA: string; state: string };
  files: RevisionFile[];
}

/**
 * The files an item's revision changed, through the provider contract (`getRevisionFiles`): the open
 * revision, else — where the provider keeps its history (`history`) — its newest merged or closed one, as
 * `flotilla diff` picks it. No revision yet, or the provider cannot read it: CliError exit 1.
 */
export async function readWorkItemFiles(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader' | 'localAdmin' | 'history'>,
  id: string,
): Promise<WorkItemFiles> {
  const item = await requireProviderItem(provider, id, 'diff');
  const revision =
    provider.history === undefined
      ? item.linkedRevision === null
        ? null
        : await provider.revisionReader
            .getRevision(item.linkedRevision)
            .then((open) => open && { ...open, state: 'open' })
      : (await provider.history.readItemHistory(id)).revision;
  if (revision === null) {
    throw new CliError(`#${id} has no revision yet, so there is no diff (it is ${item.status})`, {
      exitCode: 1,
    });
  }
  const files = await provider.revisionReader.getRevisionFiles(revision.id).catch((error: unknown) => {
    throw new CliError(
      `cannot read the revision of #${id} (${revision.headRef} at ${revision.headSHA.slice(0, 12)}): ${messageOf(error)}`,
      { exitCode: 1 },
    );
  });
  return {
    revision: {
      id: revision.id,
      headRef: revision.headRef,
      headSHA: revision.headSHA,
      state: revision.state,
    },
    files,
  };
}
