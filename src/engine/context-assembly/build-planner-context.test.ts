import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorkItem } from '../../../test/support/shared/builders/build-work-item.ts';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import type { WorkItem } from '../../domain/index.ts';
import { runGit } from '../../process/run-command.ts';
import { buildInitialEngineState } from '../state-store/engine-state.ts';
import { buildPlannerContext, type PlannerContextDeps } from './build-planner-context.ts';
import { diffSpecText } from './diff-spec-text.ts';

interface Fixture {
  /** The given version of each spec, by path (readable under the SHA `given()` assigns it). */
  specs?: Record<string, string>;
  blobs?: Record<string, string>;
  lastPlannedSHAs?: Record<string, string>;
  workItems?: WorkItem[];
  bodies?: Record<string, string>;
}

function stubDeps(fixture: Fixture): PlannerContextDeps & { bodyRequests: string[] } {
  const bodyRequests: string[] = [];
  const state = buildInitialEngineState({
    lastPlannedSHAs: fixture.lastPlannedSHAs ?? {},
    workItems: Object.fromEntries((fixture.workItems ?? []).map((item) => [item.id, item])),
  });
  return {
    bodyRequests,
    getState: () => state,
    readSpecBlob: async (sha) => {
      const named = sha.startsWith('given:') ? fixture.specs?.[sha.slice('given:'.length)] : undefined;
      const content = named ?? fixture.blobs?.[sha];
      if (content === undefined) throw new Error(`bad object ${sha}`);
      return content;
    },
    diffText: async (path, before, after) =>
      `--- a/${path}\n+++ b/${path}\n-${before.trim()}\n+${after.trim()}\n`,
    getWorkItemBody: async (id) => {
      bodyRequests.push(id);
      const body = fixture.bodies?.[id];
      if (body === undefined) throw new Error(`no body for ${id}`);
      return body;
    },
  };
}

/** Planner params for these paths, each spec given under the SHA `given:<path>`. */
function given(specPaths: string[]) {
  return { specPaths, specSHAs: Object.fromEntries(specPaths.map((path) => [path, `given:${path}`])) };
}

describe('buildPlannerContext', () => {
  it('Given `startAgent` is called with `PlannerStartParams` containing two spec paths, when context is assembled, then the enriched prompt includes full content for both specs', async () => {
    const deps = stubDeps({
      specs: { 'docs/specs/a.md': '# A\n\nAll of A.\n', 'docs/specs/b.md': '# B\n\nAll of B.\n' },
    });
    const prompt = await buildPlannerContext(given(['docs/specs/a.md', 'docs/specs/b.md']), deps);
    expect(prompt).toContain('### docs/specs/a.md (added)\n# A\n\nAll of A.\n');
    expect(prompt).toContain('### docs/specs/b.md (added)\n# B\n\nAll of B.\n');
  });

  it('Given a spec path has no entry in `lastPlannedSHAs`, when context is assembled, then the spec is classified as `added` with no diff section', async () => {
    const deps = stubDeps({
      specs: { 'docs/specs/a.md': '# A\n' },
      lastPlannedSHAs: { 'docs/specs/other.md': 'f'.repeat(40) },
    });
    const prompt = await buildPlannerContext(given(['docs/specs/a.md']), deps);
    expect(prompt).toBe(
      '## Changed Specs\n\n### docs/specs/a.md (added)\n# A\n\n## Existing Work Items\n\n(none)\n',
    );
    expect(prompt).not.toContain('#### Diff');
  });

  it('Given a spec path has an entry in `lastPlannedSHAs` with a different blobSHA, when context is assembled, then the spec is classified as `modified` with a unified diff section', async () => {
    const oldSHA = 'a'.repeat(40);
    const deps = stubDeps({
      specs: { 'docs/specs/a.md': 'new text\n' },
      blobs: { [oldSHA]: 'old text\n' },
      lastPlannedSHAs: { 'docs/specs/a.md': oldSHA },
    });
    const prompt = await buildPlannerContext(given(['docs/specs/a.md']), deps);
    expect(prompt).toContain(
      '### docs/specs/a.md (modified)\nnew text\n\n#### Diff\n--- a/docs/specs/a.md\n+++ b/docs/specs/a.md\n-old text\n+new text\n\n## Existing Work Items',
    );
  });

  it('follows the seed format: added then modified specs in the order given, then the work item listing', async () => {
    const oldSHA = 'b'.repeat(40);
    const deps = stubDeps({
      specs: { 'specs/new.md': 'N', 'specs/changed.md': 'C2' },
      blobs: { [oldSHA]: 'C1' },
      lastPlannedSHAs: { 'specs/changed.md': oldSHA },
      workItems: [buildWorkItem({ id: '3', title: 'Three', status: 'ready' })],
      bodies: { '3': 'Body three' },
    });
    const prompt = await buildPlannerContext(given(['specs/new.md', 'specs/changed.md']), deps);
    expect(prompt).toBe(
      `${[
        '## Changed Specs',
        '### specs/new.md (added)\nN',
        '### specs/changed.md (modified)\nC2',
        '#### Diff\n--- a/specs/changed.md\n+++ b/specs/changed.md\n-C1\n+C2',
        '## Existing Work Items',
        '### WorkItem #3 — Three\nStatus: ready\n\nBody three',
      ].join('\n\n')}\n`,
    );
  });

  it('Given existing work items in the state store, when planner context is assembled, then the prompt includes a work item listing with id, title, status, and body for each', async () => {
    const deps = stubDeps({
      specs: { 's.md': 'S' },
      workItems: [
        buildWorkItem({ id: '10', title: 'Ten', status: 'blocked' }),
        buildWorkItem({ id: '2', title: 'Two', status: 'pending' }),
        buildWorkItem({ id: '7', title: 'Refine the spec', status: 'needs-refinement', kind: 'refinement' }),
      ],
      bodies: { '10': 'Body ten\n', '2': 'Body two', '7': '' },
    });
    const prompt = await buildPlannerContext(given(['s.md']), deps);
    const listing = prompt.slice(prompt.indexOf('## Existing Work Items'));
    expect(listing).toBe(
      `${[
        '## Existing Work Items',
        '### WorkItem #2 — Two\nStatus: pending\n\nBody two',
        '### WorkItem #7 — Refine the spec\nStatus: needs-refinement\n\n(no description)',
        '### WorkItem #10 — Ten\nStatus: blocked\n\nBody ten',
      ].join('\n\n')}\n`,
    );
    expect(deps.bodyRequests.sort()).toEqual(['10', '2', '7']);
  });

  it('fetches many bodies with bounded concurrency and keeps their order', async () => {
    const workItems = Array.from({ length: 30 }, (_, i) =>
      buildWorkItem({ id: String(i + 1), title: `T${i + 1}` }),
    );
    const deps = stubDeps({ specs: { 's.md': 'S' }, workItems });
    let inFlight = 0;
    let maxInFlight = 0;
    deps.getWorkItemBody = async (id) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      return `body ${id}`;
    };
    const prompt = await buildPlannerContext(given(['s.md']), deps);
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(prompt.indexOf('body 9\n')).toBeLessThan(prompt.indexOf('body 10\n'));
    expect(prompt).toContain('### WorkItem #30 — T30\nStatus: pending\n\nbody 30\n');
  });

  describe('Given `startAgent` is called for any role, when a context assembly fetch fails (spec read, work item body, revision files), then the promise rejects', () => {
    it('rejects naming the spec (and blob) that could not be read', async () => {
      const deps = stubDeps({ specs: {} });
      await expect(buildPlannerContext(given(['docs/specs/gone.md']), deps)).rejects.toThrow(
        'Cannot fetch spec docs/specs/gone.md (blob given:docs/specs/gone.md): bad object given:docs/specs/gone.md',
      );
    });

    it('rejects a spec path given without its blob SHA', async () => {
      const deps = stubDeps({ specs: { 's.md': 'S' } });
      await expect(buildPlannerContext({ specPaths: ['s.md'], specSHAs: {} }, deps)).rejects.toThrow(
        'Cannot fetch spec s.md: no blob SHA was given for it',
      );
    });

    it('rejects naming the work item whose body could not be fetched', async () => {
      const deps = stubDeps({ specs: { 's.md': 'S' }, workItems: [buildWorkItem({ id: '4' })], bodies: {} });
      await expect(buildPlannerContext(given(['s.md']), deps)).rejects.toThrow(
        'Cannot fetch the body of work item #4: no body for 4',
      );
    });

    it('rejects naming the last planned blob that could not be read', async () => {
      const sha = 'c'.repeat(40);
      const deps = stubDeps({ specs: { 's.md': 'S' }, lastPlannedSHAs: { 's.md': sha } });
      await expect(buildPlannerContext(given(['s.md']), deps)).rejects.toThrow(
        `Cannot fetch the last planned version (blob ${sha}) of spec s.md: bad object ${sha}`,
      );
    });
  });
});

describe('buildPlannerContext with specs read from git by blob SHA', () => {
  let repo: TempGitRepo;
  beforeEach(async () => {
    repo = await createTempGitRepo();
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  const blobOf = async (path: string) => (await repo.git(['rev-parse', `HEAD:${path}`])).trim();
  const gitDeps = (lastPlannedSHAs: Record<string, string>): PlannerContextDeps => ({
    readSpecBlob: async (sha) => (await runGit(['cat-file', 'blob', sha], { cwd: repo.root })).stdout,
    diffText: diffSpecText,
    getState: () => buildInitialEngineState({ lastPlannedSHAs }),
    getWorkItemBody: async () => '',
  });

  it('diffs a modified spec against the last planned blob with git, labelled with the spec path', async () => {
    await repo.commit('spec v1', { 'docs/specs/login.md': '# Login\n\nUsers log in.\n\n- [ ] email\n' });
    const plannedBlob = await blobOf('docs/specs/login.md');
    await repo.commit('spec v2', {
      'docs/specs/login.md': '# Login\n\nUsers log in.\n\n- [ ] email\n- [ ] passkey\n',
      'docs/specs/new.md': '# New\n',
    });
    const specSHAs = {
      'docs/specs/login.md': await blobOf('docs/specs/login.md'),
      'docs/specs/new.md': await blobOf('docs/specs/new.md'),
    };
    const prompt = await buildPlannerContext(
      { specPaths: ['docs/specs/login.md', 'docs/specs/new.md'], specSHAs },
      gitDeps({ 'docs/specs/login.md': plannedBlob }),
    );
    expect(prompt).toBe(
      `${[
        '## Changed Specs',
        '### docs/specs/login.md (modified)\n# Login\n\nUsers log in.\n\n- [ ] email\n- [ ] passkey',
        '#### Diff\n--- a/docs/specs/login.md\n+++ b/docs/specs/login.md\n@@ -3,3 +3,4 @@\n Users log in.\n \n - [ ] email\n+- [ ] passkey',
        '### docs/specs/new.md (added)\n# New',
        '## Existing Work Items',
        '(none)',
      ].join('\n\n')}\n`,
    );
  });

  it('plans the committed version it was given, not an uncommitted edit in the working tree', async () => {
    await repo.commit('spec', { 'docs/specs/a.md': '# A\n\nCommitted text.\n' });
    const committed = await blobOf('docs/specs/a.md');
    await repo.write({ 'docs/specs/a.md': '# A\n\nAn edit nobody committed.\n' });
    const prompt = await buildPlannerContext(
      { specPaths: ['docs/specs/a.md'], specSHAs: { 'docs/specs/a.md': committed } },
      gitDeps({}),
    );
    expect(prompt).toContain('### docs/specs/a.md (added)\n# A\n\nCommitted text.\n');
    expect(prompt).not.toContain('nobody committed');
  });

  it('says so when a planned spec has not changed since', async () => {
    await repo.commit('spec', { 'spec.md': 'same\n' });
    const blob = await blobOf('spec.md');
    const prompt = await buildPlannerContext(
      { specPaths: ['spec.md'], specSHAs: { 'spec.md': blob } },
      gitDeps({ 'spec.md': blob }),
    );
    expect(prompt).toContain(
      '### spec.md (modified)\nsame\n\n#### Diff\n(no changes since the last planned version)',
    );
  });

  it('rejects when the last planned blob is not in the local repository', async () => {
    await repo.commit('spec', { 'spec.md': 'x\n' });
    const missing = '0123456789abcdef0123456789abcdef01234567';
    await expect(
      buildPlannerContext(
        { specPaths: ['spec.md'], specSHAs: { 'spec.md': await blobOf('spec.md') } },
        gitDeps({ 'spec.md': missing }),
      ),
    ).rejects.toThrow(`Cannot fetch the last planned version (blob ${missing}) of spec spec.md`);
  });
});
