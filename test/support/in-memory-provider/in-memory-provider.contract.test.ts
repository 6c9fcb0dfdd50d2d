import { describeProviderContract } from '../provider-contract/provider-contract-suite.ts';
import { createInMemoryProvider } from './create-in-memory-provider.ts';

describeProviderContract(
  'in-memory double',
  async ({ checks }) => {
    // No git: "checks" are CI the test plays. `none` is the double's "no CI" mode (green on every push).
    const provider = createInMemoryProvider({
      initialPipelineStatus: checks === 'none' ? 'success' : 'pending',
    });
    const { control } = provider;
    return {
      provider,
      control: {
        engineAuthor: 'flotilla',
        async addSpec({ filePath, content, status }) {
          control.addSpec({ filePath, content, frontmatterStatus: status });
        },
        async addBrokenSpec({ filePath }) {
          control.setSpecProblem(filePath, 'frontmatter is not valid YAML');
        },
        async humanCloseWorkItem(id) {
          control.closeWorkItem(id);
        },
        workItemComments: async (id) => control.workItemComments(id),
        revisionComments: async (id) => control.revisionComments(id),
        async settleChecks() {
          for (const revision of control.revisionRecords()) {
            if (revision.state !== 'open' || revision.pipeline?.status !== 'pending') continue;
            if (checks === 'failing') {
              control.setPipeline(revision.id, 'failure', {
                url: `memory://checks/${revision.headSHA}`,
                reason: 'test: exit code 1',
              });
            } else {
              control.setPipeline(revision.id, 'success', { url: `memory://checks/${revision.headSHA}` });
            }
          }
        },
        async cleanup() {},
      },
    };
  },
  { localAdmin: true, history: false },
);
