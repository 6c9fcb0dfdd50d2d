import type { FlotillaConfig, FlotillaPaths } from '../config/index.ts';
import type { AgentRole } from '../domain/index.ts';
import {
  type AgentContextDeps,
  assembleAgentContext,
  type PromptTemplates,
} from '../engine/context-assembly/assemble-agent-context.ts';
import type { AgentRunRequest } from '../engine/runtime-contract/index.ts';
import { buildInitialEngineState } from '../engine/state-store/engine-state.ts';
import { getApprovedSpecSHAs } from '../engine/state-store/selectors/index.ts';
import { silentLogger } from '../logging/logger.ts';
import type { Database, EngineStatePersistence } from '../storage/index.ts';
import { type ControlPlaneProvider, createConfiguredProvider } from './create-configured-provider.ts';
import { loadPromptTemplates } from './load-prompt-templates.ts';

export interface CurrentPromptOptions {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  db: Database;
  /** The stored engine state (the memories, task context and planned specs; PostgreSQL in cluster mode). */
  history: Pick<EngineStatePersistence, 'memories' | 'taskContext' | 'loadPlannedSHAs'>;
  env: Readonly<Record<string, string | undefined>>;
  role: AgentRole;
  /** The item an implementor or reviewer would run on; the planner has none. */
  workItemID: string | null;
}

/**
 * Why no prompt can be built: `usage` (a bad template, no item named) or `state` (the item does not exist,
 * has no revision to review); `details` lists each template problem.
 */
export class CurrentPromptError extends Error {
  readonly kind: 'usage' | 'state';
  readonly details: readonly string[];

  constructor(message: string, kind: 'usage' | 'state', details: readonly string[] = []) {
    super(message);
    this.name = 'CurrentPromptError';
    this.kind = kind;
    this.details = details;
  }
}

/**
 * The exact prompt a run of `role` on the item would be given now (`flotilla prompt`): the same context
 * assembly as `flotilla run`, over the configured provider, the stored task context and the prompt templates
 * (docs/prompt-templates.md). Reads only: nothing is written, no run is recorded. The planner gets every
 * approved spec at its current version, as a planning run would.
 */
export async function buildCurrentPrompt(options: CurrentPromptOptions): Promise<string> {
  const { repoRoot, config, paths, db, role } = options;
  const templates = await loadPromptTemplates(repoRoot);
  if (!templates.ok)
    throw new CurrentPromptError(
      'invalid prompt templates (docs/prompt-templates.md):',
      'usage',
      templates.errors,
    );
  const provider = await createConfiguredProvider({
    repoRoot,
    config,
    paths,
    db,
    env: options.env,
    logger: silentLogger,
  });
  try {
    const deps = contextDepsOf(provider, templates.templates, options.history, config);
    if (role === 'planner') return await plannerPrompt(provider, options.history, deps);
    return await itemPrompt(options, provider, deps);
  } finally {
    await provider.close();
  }
}

type ContextDeps = Omit<AgentContextDeps, 'getState'>;

/** What context assembly reads besides the state: the provider's readers, the templates, the memories. */
function contextDepsOf(
  provider: ControlPlaneProvider,
  promptTemplates: PromptTemplates,
  history: CurrentPromptOptions['history'],
  config: FlotillaConfig,
): ContextDeps {
  const { memories } = history;
  return {
    workItemReader: provider.workItemReader,
    revisionReader: provider.revisionReader,
    specReader: provider.specReader,
    promptTemplates,
    // What `flotilla run` passes: with `merged`, an item never builds on unmerged revisions.
    dependencyWaitFor: config.dependencies.waitFor,
    memories: {
      list: (limit: number) => memories.list(limit),
      count: () => memories.count(),
      maxPromptChars: config.memory.maxPromptChars,
    },
    // What `flotilla run` reads too: on a shared tracker, the history other machines recorded.
    ...(provider.taskContextMirror !== undefined && {
      readMirroredTaskContext: (id: string) =>
        provider.taskContextMirror?.readEntries(id) ?? Promise.resolve([]),
    }),
  };
}

/** The planner's prompt: every approved spec at its current version, as a planning run would get it. */
async function plannerPrompt(
  provider: ControlPlaneProvider,
  history: CurrentPromptOptions['history'],
  deps: ContextDeps,
): Promise<string> {
  const [listing, workItems] = await Promise.all([
    provider.specReader.listSpecs(),
    provider.workItemReader.listWorkItems(),
  ]);
  const state = buildInitialEngineState({
    specs: Object.fromEntries(listing.specs.map((spec) => [spec.filePath, spec])),
    workItems: Object.fromEntries(workItems.map((listed) => [listed.id, listed])),
    lastPlannedSHAs: history.loadPlannedSHAs(),
  });
  const specSHAs = getApprovedSpecSHAs(state);
  const request: AgentRunRequest = {
    role: 'planner',
    sessionID: 'prompt-preview',
    specPaths: Object.keys(specSHAs),
    specSHAs,
  };
  return (await assembleAgentContext(request, { ...deps, getState: () => state })).prompt;
}

/** The implementor's or reviewer's prompt on the named item, with its stored task context. */
async function itemPrompt(
  options: CurrentPromptOptions,
  provider: ControlPlaneProvider,
  deps: ContextDeps,
): Promise<string> {
  const { role, workItemID } = options;
  if (workItemID === null)
    throw new CurrentPromptError(`the ${role} prompt is for a work item: name one`, 'usage');
  const item = await provider.workItemReader.getWorkItem(workItemID);
  if (item === null) throw new CurrentPromptError(`work item #${workItemID} does not exist`, 'state');
  // The tracker as the engine holds it after a poll: the item's blockers and the open revisions decide
  // what an implementor's worktree starts from (its "builds on" section), as in a run.
  const [workItems, revisions] = await Promise.all([
    provider.workItemReader.listWorkItems(),
    provider.revisionReader.listRevisions(),
  ]);
  const state = buildInitialEngineState({
    workItems: { ...Object.fromEntries(workItems.map((listed) => [listed.id, listed])), [item.id]: item },
    revisions: Object.fromEntries(revisions.map((revision) => [revision.id, revision])),
    taskContext: { [item.id]: options.history.taskContext.list(item.id) },
  });
  const getState = () => state;
  if (role === 'implementor') {
    const request: AgentRunRequest = {
      role,
      sessionID: 'prompt-preview',
      workItemID: item.id,
      branchName: `flotilla/${item.id}`,
      // An investigation's or refinement's item runs in its mode: that mode's template (issue #29).
      ...(item.mode !== undefined && { mode: item.mode }),
    };
    return (await assembleAgentContext(request, { ...deps, getState })).prompt;
  }
  if (item.linkedRevision === null)
    throw new CurrentPromptError(`work item #${item.id} has no revision for a reviewer to review`, 'state');
  const request: AgentRunRequest = {
    role: 'reviewer',
    sessionID: 'prompt-preview',
    workItemID: item.id,
    revisionID: item.linkedRevision,
  };
  return (await assembleAgentContext(request, { ...deps, getState })).prompt;
}
