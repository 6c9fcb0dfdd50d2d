import { buildContractAddPatch, CONTRACT_BASE_FILES } from '../provider-contract/provider-contract-suite.ts';
import { createGitHubTestProvider } from './create-github-test-provider.ts';

/**
 * Test support for GitHub's own merge queue (issue #30 §5): a fake GitHub whose default branch requires the
 * queue, with a CI that passes once settled, a provider talking to it, and `approved(n)`: n approved items
 * whose pull requests add a file each, with green checks on their heads (the merge groups' checks are held
 * until `settleAll`).
 */
export async function createGitHubQueueFixture() {
  const test = await createGitHubTestProvider({
    baseFiles: CONTRACT_BASE_FILES,
    mergeQueue: true,
    ci: 'passing',
  });
  const { provider, github } = test;
  return {
    ...test,
    async approved(count: number) {
      const made: { id: string; revisionID: string; headSHA: string }[] = [];
      for (let index = 1; index <= count; index++) {
        const title = `Add q${index}`;
        const item = await provider.workItemWriter.createWorkItem({
          title,
          body: '',
          labels: [],
          blockedBy: [],
        });
        const revision = await provider.revisionWriter.createFromPatch({
          workItemID: item.id,
          patch: buildContractAddPatch(`src/q${index}.ts`, `export const q${index} = ${index};\n`),
          branchName: `flotilla/${item.id}`,
          title,
          body: 'The change.',
        });
        await provider.workItemWriter.transitionStatus(item.id, 'approved');
        made.push({ id: item.id, revisionID: revision.id, headSHA: revision.headSHA });
      }
      await github.settleChecks({ mergeGroups: false });
      return made;
    },
    /** Lets the queue's merge groups pass until it is empty (the fake moves its queue on each request). */
    async settleAll() {
      while (github.mergeQueue().length > 0) {
        await github.settleChecks();
        await provider.revisionReader.listRevisions();
      }
    },
  };
}
