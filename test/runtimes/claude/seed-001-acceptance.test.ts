/**
 * The acceptance criteria of docs/runtime-spec.md §Seed 001 that need the whole adapter (real SDK + scripted model server), each named
 * after its criterion. Criteria about a single module are tested beside that module (worktree/,
 * context-assembly/, load-agent-definition, schemas, extract-patch, session-log/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/runtime-contract.ts';
import { buildRequestView } from '../../../src/model-server/request-view.ts';
import type { ScenarioSpec } from '../../../src/model-server/scenario-schema.ts';
import {
  AGENT_BRANCH,
  AGENT_WORKTREE,
  adapterFor,
  branchExists,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

const session = () => ({ ...implementorParams, sessionID: crypto.randomUUID() });
const rejection = <T>(promise: Promise<T>) =>
  promise.then(
    () => null,
    (error: unknown) => error as AgentRunFailure,
  );

describe('seed 001 — startAgent lifecycle', () => {
  it('Given startAgent with ImplementorStartParams, when worktree setup fails, then the promise rejects, the worktree is removed, and no agent session is created', async () => {
    const adapter = await adapterFor(
      { name: 'unused', routes: [{ name: 'any', steps: [{ text: 'should not be asked' }] }] },
      { setupCommand: 'echo installing && exit 7' },
    );
    await expect(adapter.startAgent(session())).rejects.toThrow(/exit|7|setup/i);
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
    expect(branchExists(AGENT_BRANCH)).toBe(false);
    expect(fixture.server!.requests).toHaveLength(0);
  });

  it('Given a stale worktree exists at the target path from a previous interrupted run, when an Implementor session starts, then the stale worktree is removed before creating the new one', async () => {
    execFileSync('git', ['worktree', 'add', '-q', AGENT_WORKTREE, '-b', AGENT_BRANCH, 'main'], {
      cwd: fixture.repo.root,
    });
    await writeFile(join(fixture.repo.root, `${AGENT_WORKTREE}/stale.txt`), 'left over\n');
    const adapter = await adapterFor({
      name: 'stale',
      routes: [
        {
          name: 'implementor',
          steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'checked' } }],
        },
      ],
    });
    const handle = await adapter.startAgent(session());
    expect(existsSync(join(fixture.repo.root, `${AGENT_WORKTREE}/stale.txt`))).toBe(false);
    await handle.result;
    expect(branchExists(AGENT_BRANCH)).toBe(false);
  });

  it('leaves a branch named after the run (a local revision branch) exactly where it was', async () => {
    execFileSync('git', ['branch', 'flotilla/1', 'main'], { cwd: fixture.repo.root });
    const before = execFileSync('git', ['rev-parse', 'flotilla/1'], { cwd: fixture.repo.root }).toString();
    const adapter = await adapterFor({
      name: 'keeps-revision-branch',
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'Write', input: { file_path: '{{cwd}}/x.txt', content: 'x\n' } },
              ],
            },
            { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'x' } },
          ],
        },
      ],
    });
    const handle = await adapter.startAgent(session());
    await handle.result;
    expect(execFileSync('git', ['rev-parse', 'flotilla/1'], { cwd: fixture.repo.root }).toString()).toBe(
      before,
    );
    expect(branchExists(AGENT_BRANCH)).toBe(false);
  });

  it('Given a Reviewer session starts, when cwd is configured, then it is the repository root (no worktree)', async () => {
    const adapter = await adapterFor({
      name: 'reviewer-cwd',
      routes: [
        {
          name: 'reviewer',
          steps: [
            {
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'approve', summary: 'ok', comments: [] },
              },
            },
          ],
        },
      ],
    });
    const revision = await fixture.provider.revisionWriter.createFromPatch({
      workItemID: '1',
      patch: 'diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n',
      branchName: 'flotilla/1',
      title: 't',
      body: 'b',
    });
    fixture.state = { ...fixture.state, revisions: { [revision.id]: revision } };
    const handle = await adapter.startAgent({
      role: 'reviewer',
      sessionID: crypto.randomUUID(),
      workItemID: '1',
      revisionID: revision.id,
    });
    await handle.result;
    const recorded = fixture.server!.requests.find((request) => request.route === 'reviewer');
    expect(recorded?.unmet).toEqual([]);
    const view = buildRequestView(recorded!.body as Record<string, unknown>);
    expect(view.cwd).toBe(fixture.repo.root);
    expect(existsSync(join(fixture.repo.root, '.worktrees'))).toBe(false);
  });

  it('Given startAgent for any role, when the agent definition file contains malformed YAML, then the promise rejects', async () => {
    await writeFile(join(fixture.repo.root, '.claude/agents/planner.md'), '---\ntools: [Read, \n---\nbody\n');
    const adapter = await adapterFor({ name: 'unused', routes: [{ name: 'any', steps: [{ text: 'x' }] }] });
    await expect(
      adapter.startAgent({
        role: 'planner',
        sessionID: crypto.randomUUID(),
        specPaths: ['docs/specs/feature.md'],
      }),
    ).rejects.toThrow(/planner\.md/);
  });

  it('Given startAgent for any role, when a context assembly fetch fails, then the promise rejects and any created worktree is cleaned up', async () => {
    fixture.provider.control.failNext('getWorkItemBody', { error: new Error('tracker unreachable') });
    const adapter = await adapterFor({ name: 'unused', routes: [{ name: 'any', steps: [{ text: 'x' }] }] });
    await expect(adapter.startAgent(session())).rejects.toThrow(/tracker unreachable/);
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
    expect(branchExists(AGENT_BRANCH)).toBe(false);
  });
});

describe('seed 001 — patch extraction and structured output', () => {
  it('Given an Implementor session completes with outcome completed but the worktree has no changes vs main, when the adapter runs git diff, then handle.result rejects', async () => {
    const adapter = await adapterFor({
      name: 'no-changes',
      routes: [
        {
          name: 'implementor',
          steps: [
            { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'did nothing' } },
          ],
        },
      ],
    });
    const failure = await rejection((await adapter.startAgent(session())).result);
    expect(failure).toBeInstanceOf(AgentRunFailure);
    expect(failure?.message).toMatch(/empty patch/);
    expect(branchExists(AGENT_BRANCH)).toBe(false);
  });

  it('Given an Implementor session completes with outcome validation-failure, when result assembly runs, then patch is null and no diff extraction is attempted', async () => {
    const adapter = await adapterFor({
      name: 'validation-failure',
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: '{{cwd}}/wip.txt', content: 'half done\n' },
                },
              ],
            },
            {
              structuredOutput: {
                role: 'implementor',
                outcome: 'validation-failure',
                summary: 'tests keep failing',
              },
            },
          ],
        },
      ],
    });
    const result = await (await adapter.startAgent(session())).result;
    expect(result).toEqual({
      role: 'implementor',
      outcome: 'validation-failure',
      summary: 'tests keep failing',
      patch: null,
    });
  });

  it('Given an agent definition file includes maxTurns, when query() is called, then the maxTurns session option is set (the SDK stops the session at it)', async () => {
    await writeFile(
      join(fixture.repo.root, '.claude/agents/implementor.md'),
      '---\ndescription: limited\ntools: Read, Write, Bash\nmaxTurns: 1\n---\nYou are limited.\n',
    );
    const adapter = await adapterFor({
      name: 'max-turns',
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'Bash', input: { command: 'git status', description: 'Status' } },
              ],
            },
            { structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'too late' } },
          ],
        },
      ],
    });
    const failure = await rejection((await adapter.startAgent(session())).result);
    expect(failure?.message).toMatch(/error_max_turns/);
  });
});

describe('issue #29 — limits.<mode>.maxTurns', () => {
  it('a configured maxTurns wins over the agent definition’s; a default applies only when it sets none', async () => {
    const steps: ScenarioSpec['routes'][number]['steps'] = [
      {
        content: [
          { type: 'tool_use', name: 'Bash', input: { command: 'git status', description: 'Status' } },
        ],
      },
      { structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'too late' } },
    ];
    const definition = (frontmatter: string) =>
      writeFile(
        join(fixture.repo.root, '.claude/agents/implementor.md'),
        `---\ndescription: limited\ntools: Read, Write, Bash\n${frontmatter}---\nYou are limited.\n`,
      );
    const scenario: ScenarioSpec = { name: 'mode-limits', routes: [{ name: 'implementor', steps }] };
    await definition('maxTurns: 50\n');
    const configured = await adapterFor(scenario);
    const limited = { ...session(), limits: { maxTurns: 1, defaultMaxTurns: 200 } };
    expect((await rejection((await configured.startAgent(limited)).result))?.message).toMatch(
      /error_max_turns/,
    );
    await definition('');
    const defaulted = await adapterFor(scenario);
    const byDefault = { ...session(), limits: { defaultMaxTurns: 1 } };
    expect((await rejection((await defaulted.startAgent(byDefault)).result))?.message).toMatch(
      /error_max_turns/,
    );
    // The definition's own maxTurns (50) stands over a default (1): the run completes.
    await definition('maxTurns: 50\n');
    const own = await adapterFor(scenario);
    const result = await (await own.startAgent({ ...session(), limits: { defaultMaxTurns: 1 } })).result;
    expect(result).toMatchObject({ outcome: 'blocked' });
  });
});

describe('seed 001 — output stream', () => {
  it('Given a running session producing tool_use and system messages, when the output iterable is consumed, then only text is surfaced, and it completes when the session completes', async () => {
    const adapter = await adapterFor({
      name: 'stream',
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                { type: 'text', text: 'Looking around first.' },
                {
                  type: 'tool_use',
                  name: 'Bash',
                  input: { command: 'git status --short', description: 'Status' },
                },
              ],
            },
            {
              text: 'All clear.',
              structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'nothing to do' },
            },
          ],
        },
      ],
    });
    const handle = await adapter.startAgent(session());
    const chunks: string[] = [];
    for await (const chunk of handle.output) chunks.push(chunk);
    expect(chunks).toEqual(['Looking around first.', 'All clear.']);
    await handle.result;
  });
});
