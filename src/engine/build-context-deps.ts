import { silentLogger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { AgentContextDeps } from './context-assembly/assemble-agent-context.ts';
import type { EngineConfig } from './engine-config.ts';
import type { EngineState } from './state-store/engine-state.ts';

/** What assembling a run's prompt reads: the store, the provider's readers and capabilities, the config. */
export function buildContextDeps(
  config: EngineConfig,
  getState: () => EngineState,
  dependencyWaitFor: NonNullable<AgentContextDeps['dependencyWaitFor']>,
): AgentContextDeps {
  const { provider } = config;
  const { workBase } = provider;
  return {
    getState,
    workItemReader: provider.workItemReader,
    revisionReader: provider.revisionReader,
    specReader: provider.specReader,
    ...(config.promptTemplates !== undefined && { promptTemplates: config.promptTemplates }),
    dependencyWaitFor,
    ...(config.memories !== undefined && { memories: config.memories }),
    ...(provider.taskContextMirror !== undefined && {
      readMirroredTaskContext: (id: string) =>
        provider.taskContextMirror?.readEntries(id) ?? Promise.resolve([]),
    }),
    // GitHub: the default branch (and what a run builds on) fetched before its worktree (issue #30). A
    // fetch that fails leaves the run on the clone's default branch, as before, rather than failing it.
    ...(workBase !== undefined && {
      syncWorkBase: (branches: readonly string[]) =>
        workBase.sync(branches).catch((error: unknown) => {
          (config.logger ?? silentLogger).warn(
            "could not fetch the default branch; the run starts from the clone's",
            {
              error: messageOf(error),
            },
          );
          return undefined;
        }),
    }),
  };
}
