import { describe, expect, it } from 'vitest';
import type { WorkItem } from '../../domain/index.ts';
import { createInMemoryProvider } from '../../providers/in-memory/create-in-memory-provider.ts';
import type { AgentRunRequest } from '../runtime-contract/index.ts';
import { buildInitialEngineState } from '../state-store/engine-state.ts';
import { assembleAgentContext } from './assemble-agent-context.ts';
import { buildImplementorContext } from './build-implementor-context.ts';
import { buildReviewerContext } from './build-reviewer-context.ts';

const PATCH = 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n';

function world() {
  const provider = createInMemoryProvider();
  const item = provider.control.addWorkItem({ title: 'Greet', body: 'Say hello.', status: 'in-progress' });
  const revision = provider.control.addRevision({
    branchName: 'flotilla/1',
    workItemID: item.id,
    patch: PATCH,
  });
  const state = buildInitialEngineState({
    workItems: { [item.id]: { ...(item as WorkItem), linkedRevision: revision.id } },
    revisions: { [revision.id]: revision },
  });
  const deps = {
    getState: () => state,
    workItemReader: provider.workItemReader,
    revisionReader: provider.revisionReader,
    specReader: provider.specReader,
  };
  const builderDeps = {
    ...deps,
    getReviewHistory: (id: string) => provider.revisionReader.getReviewHistory(id),
  };
  return { provider, item, revision, state, deps, builderDeps };
}

describe('assembleAgentContext', () => {
  it("gives an implementor run its request plus the role's prompt, as the builder makes it", async () => {
    const { item, deps, builderDeps } = world();
    const request = {
      role: 'implementor',
      sessionID: 's1',
      workItemID: item.id,
      branchName: 'flotilla/1',
    } as const;
    const params = await assembleAgentContext(request, deps);
    expect(params).toEqual({ ...request, prompt: await buildImplementorContext(request, builderDeps) });
    expect(params.prompt).toContain('## Revision #2');
  });

  it('gives a reviewer run the reviewer prompt', async () => {
    const { item, revision, deps, builderDeps } = world();
    const request = {
      role: 'reviewer',
      sessionID: 's2',
      workItemID: item.id,
      revisionID: revision.id,
    } as const;
    expect(await assembleAgentContext(request, deps)).toEqual({
      ...request,
      prompt: await buildReviewerContext(request, builderDeps),
    });
  });

  it("reads a planner's specs from the provider by the blob SHAs it was given, an older one included", async () => {
    const { provider, deps } = world();
    const given = provider.control.addSpec({
      filePath: 'docs/specs/a.md',
      frontmatterStatus: 'approved',
      content: 'Version one.\n',
    });
    provider.control.editSpec('docs/specs/a.md', { content: 'Version two.\n' });
    const request: AgentRunRequest = {
      role: 'planner',
      sessionID: 's3',
      specPaths: ['docs/specs/a.md'],
      specSHAs: { 'docs/specs/a.md': given.blobSHA },
    };
    const params = await assembleAgentContext(request, deps);
    expect(params.prompt).toContain('### docs/specs/a.md (added)\nVersion one.\n');
    expect(params.prompt).not.toContain('Version two');
    expect(structuredClone(params)).toEqual(params);
  });

  it('rejects naming what could not be read', async () => {
    const { deps } = world();
    const missing = 'f'.repeat(40);
    await expect(
      assembleAgentContext(
        { role: 'planner', sessionID: 's4', specPaths: ['x.md'], specSHAs: { 'x.md': missing } },
        deps,
      ),
    ).rejects.toThrow(`Cannot fetch spec x.md (blob ${missing}): Blob ${missing} is missing`);
  });
});
