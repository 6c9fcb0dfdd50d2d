import type { RevisionReader, SpecReader, WorkItemReader } from '../../providers/types.ts';
import type { AgentRunRequest, AgentStartParams } from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildImplementorContext } from './build-implementor-context.ts';
import { buildPlannerContext } from './build-planner-context.ts';
import { buildReviewerContext } from './build-reviewer-context.ts';
import { diffSpecText } from './diff-spec-text.ts';

/** What context assembly reads: the engine's store and the provider's readers. */
export interface AgentContextDeps {
  getState: () => EngineState;
  workItemReader: Pick<WorkItemReader, 'getWorkItem' | 'getWorkItemBody'>;
  revisionReader: Pick<
    RevisionReader,
    'getRevision' | 'getRevisionFiles' | 'getChecksOutputTail' | 'getReviewHistory'
  >;
  specReader: Pick<SpecReader, 'readSpecBlob'>;
}

/**
 * The engine side of the runtime contract: a run request plus its finished prompt, the role's context
 * built from the store and the provider (docs/seeds.md §Context Assembly). Runtimes get only this plain data. Rejects,
 * naming what could not be read, when a fetch fails: the run then fails before any runtime is involved.
 */
export async function assembleAgentContext(
  request: AgentRunRequest,
  deps: AgentContextDeps,
): Promise<AgentStartParams> {
  const getReviewHistory = (revisionID: string) => deps.revisionReader.getReviewHistory(revisionID);
  switch (request.role) {
    case 'planner': {
      const prompt = await buildPlannerContext(request, {
        getState: deps.getState,
        readSpecBlob: (blobSHA) => deps.specReader.readSpecBlob(blobSHA),
        diffText: diffSpecText,
        getWorkItemBody: (id) => deps.workItemReader.getWorkItemBody(id),
      });
      return { ...request, prompt };
    }
    case 'implementor': {
      const prompt = await buildImplementorContext(request, { ...deps, getReviewHistory });
      return { ...request, prompt };
    }
    case 'reviewer': {
      const prompt = await buildReviewerContext(request, { ...deps, getReviewHistory });
      return { ...request, prompt };
    }
  }
}
