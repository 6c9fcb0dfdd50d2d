import type { AgentRun, Revision, Spec, WorkItem } from '../../../../src/domain/index.ts';
import {
  buildInitialEngineState,
  type EngineState,
} from '../../../../src/engine/state-store/engine-state.ts';

export interface TestStateInput
  extends Partial<Omit<EngineState, 'workItems' | 'revisions' | 'specs' | 'agentRuns'>> {
  workItems?: WorkItem[];
  revisions?: Revision[];
  specs?: Spec[];
  agentRuns?: AgentRun[];
}

/** An EngineState from lists of entities (keyed by id, path or session) plus any other fields as they are. */
export function buildTestState(input: TestStateInput = {}): EngineState {
  const { workItems = [], revisions = [], specs = [], agentRuns = [], ...rest } = input;
  return buildInitialEngineState({
    ...rest,
    workItems: Object.fromEntries(workItems.map((workItem) => [workItem.id, workItem])),
    revisions: Object.fromEntries(revisions.map((revision) => [revision.id, revision])),
    specs: Object.fromEntries(specs.map((spec) => [spec.filePath, spec])),
    agentRuns: Object.fromEntries(agentRuns.map((run) => [run.sessionID, run])),
  });
}
