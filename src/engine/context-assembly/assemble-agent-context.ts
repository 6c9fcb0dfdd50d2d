import {
  type AgentRole,
  type DependencyWaitFor,
  type Memory,
  mergeTaskContext,
  type TaskContextEntry,
  type WorkItemMode,
} from '../../domain/index.ts';
import type { RevisionReader, SpecReader, WorkItemReader } from '../../providers/types.ts';
import type {
  AgentRunRequest,
  AgentStartParams,
  ImplementorStartParams,
} from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getStackBase } from '../state-store/selectors/index.ts';
import { buildBuildsOnSection } from './build-builds-on-section.ts';
import { buildImplementorPrompt } from './build-implementor-context.ts';
import {
  buildMemoriesSection,
  DEFAULT_MEMORY_PROMPT_CHARS,
  readMemoriesSection,
} from './build-memories-section.ts';
import { buildModeRevisionSection } from './build-mode-revision-section.ts';
import { buildPlannerPrompt } from './build-planner-context.ts';
import { buildReviewerPrompt } from './build-reviewer-context.ts';
import { buildTaskContextSection } from './build-task-context-section.ts';
import { diffSpecText } from './diff-spec-text.ts';
import { fetchContextData } from './fetch-context-data.ts';
import { withoutTrailingNewlines } from './markdown-text.ts';
import { type PromptTemplate, renderPromptTemplate } from './parse-prompt-template.ts';
import type { RolePrompt } from './role-prompt.ts';

/**
 * The parsed `.flotilla/prompts/<role>.md` templates, and `<mode>.md` for an implementor's read-only modes
 * (issue #29: `investigate`, `refine`); a run without its own gets the built-in prompt.
 */
export type PromptTemplates = Partial<Record<AgentRole | WorkItemMode, PromptTemplate>>;

/**
 * The template a run uses: its mode's for an investigation or refinement (never the implementor's, which
 * is written for changing code), else its role's.
 */
export function selectPromptTemplate(
  templates: PromptTemplates | undefined,
  request: Pick<AgentRunRequest, 'role'> & { mode?: WorkItemMode },
): PromptTemplate | undefined {
  if (request.role === 'implementor' && request.mode !== undefined) return templates?.[request.mode];
  return templates?.[request.role];
}

/** What context assembly reads: the engine's store and the provider's readers. */
export interface AgentContextDeps {
  getState: () => EngineState;
  workItemReader: Pick<WorkItemReader, 'getWorkItem' | 'getWorkItemBody'>;
  revisionReader: Pick<
    RevisionReader,
    'getRevision' | 'getRevisionFiles' | 'getChecksOutputTail' | 'getReviewHistory'
  >;
  specReader: Pick<SpecReader, 'readSpecBlob'>;
  /** Per-role prompt templates (docs/prompt-templates.md), parsed and checked before the engine starts. */
  promptTemplates?: PromptTemplates;
  /** Characters the task context section may take (build-task-context-section.ts has the default). */
  taskContextBudget?: number;
  /** Config `dependencies.waitFor`: with `merged`, an item never builds on unmerged revisions. */
  dependencyWaitFor?: DependencyWaitFor;
  /** The repository's memories for the "Memories" section; absent: "No memories yet". */
  memories?: MemorySource;
  /**
   * The provider's `taskContextMirror` (issue #28 §1): entries other machines or clones recorded for the
   * item, merged with the store's so a fresh clone's prompt carries the same history.
   */
  readMirroredTaskContext?: (workItemID: string) => Promise<TaskContextEntry[]>;
  /**
   * The provider's `workBase.sync` (issue #30, GitHub): before an implementor's worktree is made, the
   * tracker's default branch and the revision branches it builds on are fetched; the worktree starts from
   * that head (`start.from`). Absent (the local tracker, a prompt shown without a run): nothing is fetched;
   * undefined (the fetch failed, logged): the clone's default branch, as without it.
   */
  syncWorkBase?: (branches: readonly string[]) => Promise<{ defaultBranchHead: string } | undefined>;
}

/** Where prompts read the repository's memories from (issue #28 §2; storage keeps them). */
export interface MemorySource {
  /**
   * The newest `limit` memories, newest first: the section reads a few first and more only while they all
   * fit (readMemoriesSection), so a store of thousands is not read whole for every prompt.
   */
  list(limit: number): readonly Memory[];
  /** How many memories there are (the section says how many it left out). */
  count(): number;
  /** Characters the section may take (build-memories-section.ts has the default). */
  maxPromptChars?: number;
}

/**
 * Where an implementor's worktree starts (issue #30): its approved blockers' revision heads (stacked work,
 * unless `dependencyWaitFor` is `merged`), and for a rework its own previous revision, rebased; with the
 * prompt section that says so.
 */
function planImplementorStart(
  workItemID: string,
  deps: Pick<AgentContextDeps, 'getState' | 'dependencyWaitFor' | 'syncWorkBase'>,
): { start: Promise<ImplementorStartParams['start'] | undefined>; buildsOn: string } {
  const state = deps.getState();
  const item = state.workItems[workItemID];
  if (item === undefined) return { start: Promise.resolve(undefined), buildsOn: '' };
  const base = getStackBase(state, item);
  if (deps.dependencyWaitFor === 'merged') base.stacked = [];
  const previous = item.linkedRevision === null ? undefined : state.revisions[item.linkedRevision];
  // One fetch: the default branch, and the branches of what the worktree is moved onto or rebases. It runs
  // while the prompt is built (the tracker's reads), not before it.
  const synced = deps.syncWorkBase?.([
    ...base.stacked.map((blocker) => blocker.headRef),
    ...(previous === undefined ? [] : [previous.headRef]),
  ]);
  const start = (synced ?? Promise.resolve(undefined)).then((fetched) => {
    const planned = {
      ...(base.stacked.length > 0 && { onto: base.stacked.map((blocker) => blocker.headSHA) }),
      ...(previous !== undefined && { rebase: previous.headSHA }),
      ...(fetched !== undefined && { from: fetched.defaultBranchHead }),
    };
    return Object.keys(planned).length > 0 ? planned : undefined;
  });
  // Awaited with the prompt; a rejection before then is not an unhandled one.
  start.catch(() => {});
  const buildsOn = buildBuildsOnSection(base, previous === undefined ? null : { revisionID: previous.id });
  return { start, buildsOn };
}

/**
 * Where a planner's or reviewer's worktree starts (issue #30), for runtimes that give them one: the
 * tracker's default branch as fetched now (`syncWorkBase`), and for a reviewer the revision's branch fetched
 * with it and its head replayed on top. Nothing without a `syncWorkBase` or when the fetch failed.
 */
async function planReadOnlyStart(
  request: AgentRunRequest,
  deps: Pick<AgentContextDeps, 'getState' | 'syncWorkBase'>,
): Promise<{ from: string; rebase?: string } | undefined> {
  if (deps.syncWorkBase === undefined || request.role === 'implementor') return undefined;
  const revision = request.role === 'reviewer' ? deps.getState().revisions[request.revisionID] : undefined;
  const fetched = await deps.syncWorkBase(revision === undefined ? [] : [revision.headRef]);
  if (fetched === undefined) return undefined;
  return { from: fetched.defaultBranchHead, ...(revision !== undefined && { rebase: revision.headSHA }) };
}

/**
 * The engine side of the runtime contract: a run request plus its finished prompt, the role's context
 * built from the store and the provider (docs/runtime-spec.md §Context Assembly). Runtimes get only this plain data. Rejects,
 * naming what could not be read, when a fetch fails: the run then fails before any runtime is involved.
 * An item's prompt starts with its task context (docs/task-context.md) unless the role's template
 * (docs/prompt-templates.md) places `{taskContext}` itself; it ends with the repository's memories
 * (build-memories-section.ts) unless the template places `{memories}`.
 */
export async function assembleAgentContext(
  request: AgentRunRequest,
  deps: AgentContextDeps,
): Promise<AgentStartParams> {
  const getReviewHistory = (revisionID: string) => deps.revisionReader.getReviewHistory(revisionID);
  const template = selectPromptTemplate(deps.promptTemplates, request);
  const finish = (rolePrompt: RolePrompt, entries: readonly TaskContextEntry[] | null): string => {
    const taskContext = entries === null ? '' : buildTaskContextSection(entries, deps.taskContextBudget);
    const source = deps.memories;
    const maxChars = source?.maxPromptChars ?? DEFAULT_MEMORY_PROMPT_CHARS;
    const memories =
      source === undefined ? buildMemoriesSection([], maxChars) : readMemoriesSection(source, maxChars);
    if (template !== undefined)
      return renderPromptTemplate(template, { ...rolePrompt.variables, taskContext, memories });
    const builtIn = `${withoutTrailingNewlines(rolePrompt.builtIn)}\n\n${memories}\n`;
    return taskContext === '' ? builtIn : `${taskContext}\n\n${builtIn}`;
  };
  switch (request.role) {
    case 'planner': {
      const [start, rolePrompt] = await Promise.all([
        planReadOnlyStart(request, deps),
        buildPlannerPrompt(request, {
          getState: deps.getState,
          readSpecBlob: (blobSHA) => deps.specReader.readSpecBlob(blobSHA),
          diffText: diffSpecText,
          getWorkItemBody: (id) => deps.workItemReader.getWorkItemBody(id),
        }),
      ]);
      return { ...request, ...(start !== undefined && { start }), prompt: finish(rolePrompt, null) };
    }
    case 'implementor': {
      const planned = planImplementorStart(request.workItemID, deps);
      const [start, built] = await Promise.all([
        planned.start,
        buildImplementorPrompt({ ...request, buildsOn: planned.buildsOn }, { ...deps, getReviewHistory }),
      ]);
      // A re-run after a human rejected the item's investigation or refinement with a reason (issue #29).
      const state = deps.getState();
      const item = state.workItems[request.workItemID];
      // The run's own mode: an automatic refinement's item has no mode label.
      const modeRevision =
        item === undefined
          ? ''
          : buildModeRevisionSection(
              { ...item, ...(request.mode !== undefined && { mode: request.mode }) },
              state.proposals,
            );
      const rolePrompt: RolePrompt = {
        builtIn: modeRevision === '' ? built.builtIn : `${modeRevision}\n${built.builtIn}`,
        variables: { ...built.variables, modeRevision },
      };
      return {
        ...request,
        ...(start !== undefined && { start }),
        prompt: finish(rolePrompt, await readTaskContext(request.workItemID, deps)),
      };
    }
    case 'reviewer': {
      const [start, rolePrompt] = await Promise.all([
        planReadOnlyStart(request, deps),
        buildReviewerPrompt(request, { ...deps, getReviewHistory }),
      ]);
      const prompt = finish(rolePrompt, await readTaskContext(request.workItemID, deps));
      return { ...request, ...(start !== undefined && { start }), prompt };
    }
  }
}

/** The item's history: the store's entries and, when the tracker mirrors them, those only it has. */
async function readTaskContext(workItemID: string, deps: AgentContextDeps): Promise<TaskContextEntry[]> {
  const stored = deps.getState().taskContext[workItemID] ?? [];
  const read = deps.readMirroredTaskContext;
  if (read === undefined) return [...stored];
  const mirrored = await fetchContextData(`the task context of #${workItemID}`, () => read(workItemID));
  return mergeTaskContext(stored, mirrored);
}
