import type { ClusterGit } from '../cluster/create-cluster-git.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { ControlPlaneProvider } from './create-configured-provider.ts';

/**
 * Cluster mode: after each merge (and merge-queue update) the engine makes through the provider, the
 * controller publishes its default branch and revision branches on the shared remote (create-cluster-git.ts),
 * so a standby taking over in another clone starts from them even if no run started since
 * (src/cluster/adopt-published-branches.ts). A failed publish is a warning: the merge itself is done, and
 * the next run's start publishes again.
 */
export function publishAfterMerges(
  provider: ControlPlaneProvider,
  git: Pick<ClusterGit, 'publish'>,
  logger: Logger,
): void {
  const writer = provider.revisionWriter;
  const publish = async (what: string) => {
    await git.publish().catch((error: unknown) => {
      logger.warn(`cluster: could not publish the branches after ${what}`, { error: messageOf(error) });
    });
  };
  const { mergeRevision, updateRevisionBranch } = writer;
  if (mergeRevision !== undefined) {
    writer.mergeRevision = async (revisionID, options) => {
      const result = await mergeRevision.call(writer, revisionID, options);
      await publish(`merging revision #${revisionID}`);
      return result;
    };
  }
  if (updateRevisionBranch !== undefined) {
    writer.updateRevisionBranch = async (revisionID, expectedHeadSHA) => {
      const result = await updateRevisionBranch.call(writer, revisionID, expectedHeadSHA);
      await publish(`updating revision #${revisionID}`);
      return result;
    };
  }
}
