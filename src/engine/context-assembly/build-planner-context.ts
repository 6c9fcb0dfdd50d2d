import type { PlannerStartParams } from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { fetchContextData } from './fetch-context-data.ts';
import { withoutTrailingNewlines } from './markdown-text.ts';
import type { RolePrompt } from './role-prompt.ts';

export interface PlannerContextDeps {
  getState: () => Pick<EngineState, 'workItems' | 'lastPlannedSHAs'>;
  /** A spec's content by blob SHA (the provider's SpecReader.readSpecBlob): given and last planned. */
  readSpecBlob: (blobSHA: string) => Promise<string>;
  /** Unified diff from `before` to `after`, labelled with the spec's path; '' when they are equal. */
  diffText: (filePath: string, before: string, after: string) => Promise<string>;
  getWorkItemBody: (workItemID: string) => Promise<string>;
}

/** Work item bodies are fetched a few at a time: a large backlog must not burst the provider's API. */
const BODY_FETCH_CONCURRENCY = 8;

/**
 * The planner's enriched prompt (docs/runtime-spec.md §Context Assembly): every spec in full, classified `added` (never
 * planned) or `modified` (planned before, with a unified diff from the last planned blob), then every work
 * item in the store but a planner's `questions` items, with its status and body. Each spec is read by the
 * blob SHA the planner was given (the one recorded as planned when it succeeds), never from a working tree.
 * Any failed read or fetch rejects.
 */
export async function buildPlannerContext(
  params: Pick<PlannerStartParams, 'specPaths' | 'specSHAs' | 'revision'>,
  deps: PlannerContextDeps,
): Promise<string> {
  return (await buildPlannerPrompt(params, deps)).builtIn;
}

/**
 * buildPlannerContext, with each section also as a template variable (docs/prompt-templates.md): `{specs}`
 * (the changed specs as the built-in prompt shows them), `{specDiff}` (only the diffs of modified specs),
 * `{workItems}`, and `{planRevision}` (a `plan-revision` run's section, below; '' otherwise).
 *
 * A `plan-revision` run (a human rejected the proposed plan, issue #29) starts with `## Plan Revision`: the
 * human's reason and the rejected plan as JSON, to revise rather than repeat.
 */
export async function buildPlannerPrompt(
  params: Pick<PlannerStartParams, 'specPaths' | 'specSHAs' | 'revision'>,
  deps: PlannerContextDeps,
): Promise<RolePrompt> {
  const state = deps.getState();
  const specParts = await Promise.all(
    params.specPaths.map(async (filePath) => {
      const givenSHA = params.specSHAs[filePath];
      if (givenSHA === undefined)
        throw new Error(`Cannot fetch spec ${filePath}: no blob SHA was given for it`);
      const content = await fetchContextData(`spec ${filePath} (blob ${givenSHA})`, () =>
        deps.readSpecBlob(givenSHA),
      );
      const lastPlannedSHA = state.lastPlannedSHAs[filePath];
      if (lastPlannedSHA === undefined)
        return { section: `### ${filePath} (added)\n${withoutTrailingNewlines(content)}`, diff: '' };
      const previous = await fetchContextData(
        `the last planned version (blob ${lastPlannedSHA}) of spec ${filePath}`,
        () => deps.readSpecBlob(lastPlannedSHA),
      );
      const diff = await fetchContextData(`the diff of spec ${filePath}`, () =>
        deps.diffText(filePath, previous, content),
      );
      const section = [
        `### ${filePath} (modified)\n${withoutTrailingNewlines(content)}`,
        `#### Diff\n${withoutTrailingNewlines(diff) || '(no changes since the last planned version)'}`,
      ].join('\n\n');
      return { section, diff: withoutTrailingNewlines(diff) };
    }),
  );
  const specSections = specParts.map((part) => part.section);
  const specDiffs = specParts.map((part) => part.diff).filter((diff) => diff !== '');

  // A planner's questions and proposal items are the engine's bookkeeping, not work to plan around.
  const workItems = Object.values(state.workItems)
    .filter((workItem) => workItem.kind !== 'questions' && workItem.kind !== 'proposal')
    .sort((a, b) => compareIDs(a.id, b.id));
  const bodies = await mapWithConcurrency(workItems, BODY_FETCH_CONCURRENCY, (workItem) =>
    fetchContextData(`the body of work item #${workItem.id}`, () => deps.getWorkItemBody(workItem.id)),
  );
  const workItemSections = workItems.map(
    (workItem, index) =>
      `### WorkItem #${workItem.id} — ${workItem.title}\nStatus: ${workItem.status}\n\n${withoutTrailingNewlines(bodies[index] ?? '') || '(no description)'}`,
  );

  const specs = ['## Changed Specs', ...(specSections.length > 0 ? specSections : ['(none)'])].join('\n\n');
  const workItemsSection = [
    '## Existing Work Items',
    ...(workItemSections.length > 0 ? workItemSections : ['(none)']),
  ].join('\n\n');
  const planRevision = params.revision === undefined ? '' : buildPlanRevisionSection(params.revision);
  return {
    builtIn: `${planRevision === '' ? '' : `${planRevision}\n\n`}${specs}\n\n${workItemsSection}\n`,
    variables: { specs, specDiff: specDiffs.join('\n\n'), workItems: workItemsSection, planRevision },
  };
}

function buildPlanRevisionSection(revision: NonNullable<PlannerStartParams['revision']>): string {
  return [
    '## Plan Revision',
    'A human rejected the plan you proposed for these specs. Revise it with their feedback: return the whole ' +
      'revised plan (it replaces the rejected one; none of the rejected plan was applied).',
    `### Their reason\n${withoutTrailingNewlines(revision.reason) || '(no reason given)'}`,
    `### The rejected plan\n\`\`\`json\n${JSON.stringify(revision.previous, null, 2)}\n\`\`\``,
  ].join('\n\n');
}

/** Numeric ids in numeric order (`#2` before `#10`), others by string. */
function compareIDs(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
