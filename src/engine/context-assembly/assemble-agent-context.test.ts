import { describe, expect, it } from 'vitest';
import { createInMemoryProvider } from '../../../test/support/in-memory-provider/create-in-memory-provider.ts';
import type { WorkItem } from '../../domain/index.ts';
import type { AgentRunRequest } from '../runtime-contract/index.ts';
import { buildInitialEngineState } from '../state-store/engine-state.ts';
import { assembleAgentContext } from './assemble-agent-context.ts';
import { buildImplementorContext } from './build-implementor-context.ts';
import { buildMemoriesSection } from './build-memories-section.ts';
import { buildReviewerContext } from './build-reviewer-context.ts';
import { parsePromptTemplate } from './parse-prompt-template.ts';

/** The built-in layout: the role's prompt, then the repository's memories (none here). */
const withMemories = (rolePrompt: string) =>
  `${rolePrompt.replace(/\n+$/, '')}\n\n${buildMemoriesSection([])}\n`;

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
    const { item, revision, deps, builderDeps } = world();
    const request = {
      role: 'implementor',
      sessionID: 's1',
      workItemID: item.id,
      branchName: 'flotilla/1',
    } as const;
    const params = await assembleAgentContext(request, deps);
    // A rework: its worktree continues the previous revision, rebased, and the prompt says so; the memories come last.
    expect(params).toEqual({ ...request, start: { rebase: revision.headSHA }, prompt: expect.any(String) });
    const built = await buildImplementorContext(request, builderDeps);
    expect(params.prompt.startsWith(built.trimEnd())).toBe(true);
    expect(params.prompt.slice(built.length)).toMatch(/^\n## Builds On\n.*previous revision \(#2\) rebased/);
    expect(params.prompt).toContain('## Memories\n');
    expect(params.prompt).toContain('No memories yet.');
    expect(params.prompt).toContain('## Revision #2');
  });

  it("starts each role from the tracker's default branch, fetched with the branch it reworks or reviews", async () => {
    const { item, revision, deps } = world();
    const asked: (readonly string[])[] = [];
    const syncWorkBase = async (branches: readonly string[]) => {
      asked.push(branches);
      return { defaultBranchHead: 'f'.repeat(40) };
    };
    const request = {
      role: 'implementor',
      sessionID: 's1',
      workItemID: item.id,
      branchName: 'flotilla/1',
    } as const;
    const params = await assembleAgentContext(request, { ...deps, syncWorkBase });
    expect(asked).toEqual([[revision.headRef]]);
    expect(params).toMatchObject({ start: { rebase: revision.headSHA, from: 'f'.repeat(40) } });
    // A reviewer's worktree: the fetched default branch with the revision's head, fetched too, on top.
    const reviewer = await assembleAgentContext(
      { role: 'reviewer', sessionID: 's2', workItemID: item.id, revisionID: revision.id },
      { ...deps, syncWorkBase },
    );
    expect(asked[1]).toEqual([revision.headRef]);
    expect(reviewer).toMatchObject({ start: { from: 'f'.repeat(40), rebase: revision.headSHA } });
    // A planner's: the fetched default branch (the specs as merged there).
    const planner = await assembleAgentContext(
      { role: 'planner', sessionID: 's3', specPaths: [], specSHAs: {} },
      { ...deps, syncWorkBase },
    );
    expect(asked[2]).toEqual([]);
    expect(planner).toMatchObject({ start: { from: 'f'.repeat(40) } });
    // A fetch that failed (undefined): no start, the clone's default branch as before.
    const unsynced = await assembleAgentContext(
      { role: 'reviewer', sessionID: 's4', workItemID: item.id, revisionID: revision.id },
      { ...deps, syncWorkBase: async () => undefined },
    );
    expect('start' in unsynced).toBe(false);
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
      prompt: withMemories(await buildReviewerContext(request, builderDeps)),
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

  it("starts an item's prompt with its task context, oldest first, before the role's own sections", async () => {
    const { item, state, deps, builderDeps } = world();
    const entry = (sessionID: string, type: 'fix_summary' | 'review_feedback', createdAt: number) => ({
      id: `${sessionID}:${type}`,
      workItemID: item.id,
      sessionID,
      role: type === 'fix_summary' ? ('implementor' as const) : ('reviewer' as const),
      runtime: 'claude',
      type,
      summary: `${type} by ${sessionID}`,
      data: {},
      createdAt,
    });
    const withContext = {
      ...state,
      taskContext: { [item.id]: [entry('a', 'fix_summary', 1), entry('b', 'review_feedback', 2)] },
    };
    const request = {
      role: 'implementor',
      sessionID: 's5',
      workItemID: item.id,
      branchName: 'flotilla/1',
    } as const;
    const { prompt } = await assembleAgentContext(request, { ...deps, getState: () => withContext });
    const rolePrompt = await buildImplementorContext(request, builderDeps);
    expect(prompt.startsWith('## Task context\n')).toBe(true);
    expect(prompt).toContain(`\n\n${rolePrompt}`);
    expect(prompt.trimEnd().endsWith('No memories yet.')).toBe(true);
    expect(prompt.indexOf('fix_summary by a')).toBeLessThan(prompt.indexOf('review_feedback by b'));
  });

  it("merges the entries the tracker mirrors (a fresh clone's empty store) with the store's, each once", async () => {
    const { item, state, deps } = world();
    const entry = (sessionID: string, createdAt: number) => ({
      id: `${sessionID}:fix_summary`,
      workItemID: item.id,
      sessionID,
      role: 'implementor' as const,
      runtime: 'claude',
      type: 'fix_summary' as const,
      summary: `fixed by ${sessionID}`,
      data: {},
      createdAt,
    });
    const local = { ...state, taskContext: { [item.id]: [entry('here', 2)] } };
    const asked: string[] = [];
    const readMirroredTaskContext = async (id: string) => {
      asked.push(id);
      return [entry('elsewhere', 1), entry('here', 2)];
    };
    const request = { role: 'reviewer', sessionID: 's6', workItemID: item.id, revisionID: '2' } as const;
    const { prompt } = await assembleAgentContext(request, {
      ...deps,
      getState: () => local,
      readMirroredTaskContext,
    });
    expect(asked).toEqual([item.id]);
    expect(prompt.indexOf('fixed by elsewhere')).toBeLessThan(prompt.indexOf('fixed by here'));
    expect(prompt.split('fixed by here')).toHaveLength(2);
    // A mirror that cannot be read fails the run's context, naming it, like any other fetch.
    await expect(
      assembleAgentContext(request, {
        ...deps,
        readMirroredTaskContext: () => Promise.reject(new Error('HTTP 502')),
      }),
    ).rejects.toThrow(`Cannot fetch the task context of #${item.id}: HTTP 502`);
  });

  it("renders the role's template instead of the built-in layout, the task context where it says", async () => {
    const { item, revision, deps } = world();
    const parsed = parsePromptTemplate(
      'Do #{taskId} ({taskTitle}):\n{taskDescription}\n---\n{taskContext}\n---\n{changedFiles}',
      'implementor',
      'implementor.md',
    );
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const request = {
      role: 'implementor',
      sessionID: 's6',
      workItemID: item.id,
      branchName: 'flotilla/1',
    } as const;
    const { prompt } = await assembleAgentContext(request, {
      ...deps,
      promptTemplates: { implementor: parsed.template },
    });
    expect(prompt.startsWith(`Do #${item.id} (Greet):\nSay hello.\n---\n\n---\n### Changed Files\n`)).toBe(
      true,
    );
    expect(prompt).not.toContain('## Work Item');
    // Only the implementor has a template here: the reviewer keeps the built-in prompt.
    const reviewer = await assembleAgentContext(
      { role: 'reviewer', sessionID: 's7', workItemID: item.id, revisionID: revision.id },
      { ...deps, promptTemplates: { implementor: parsed.template } },
    );
    expect(reviewer.prompt.startsWith(`## Work Item #${item.id} — Greet`)).toBe(true);
  });

  it("gives a mode's run its mode's template, never the implementor's; without one the built-in prompt", async () => {
    const { item, deps } = world();
    const template = (text: string, path: string) => {
      const parsed = parsePromptTemplate(text, 'implementor', path);
      if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
      return parsed.template;
    };
    const promptTemplates = {
      implementor: template('Implement #{taskId}.', 'implementor.md'),
      investigate: template('Investigate #{taskId}: {taskTitle}.', 'investigate.md'),
    };
    const request = (mode: 'investigate' | 'refine' | undefined) => ({
      role: 'implementor' as const,
      sessionID: `s-${mode}`,
      workItemID: item.id,
      branchName: 'flotilla/1',
      ...(mode !== undefined && { mode }),
    });
    const prompt = async (mode: 'investigate' | 'refine' | undefined) =>
      (await assembleAgentContext(request(mode), { ...deps, promptTemplates })).prompt;
    expect(await prompt('investigate')).toBe(`Investigate #${item.id}: Greet.\n`);
    expect(await prompt(undefined)).toBe(`Implement #${item.id}.\n`);
    const refine = await prompt('refine');
    expect(refine.startsWith(`## Work Item #${item.id} — Greet`)).toBe(true);
    expect(refine).not.toContain('Implement #');
  });
});
