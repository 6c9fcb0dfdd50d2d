import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AGENT_BRANCH,
  AGENT_WORKTREE,
  adapterFor,
  branchExists,
  createBareClaudeAdapter,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
  startParamsFor,
} from '../../support/claude-adapter-fixture.ts';
import { createTempGitRepo } from '../../support/shared/create-temp-git-repo.ts';

installClaudeAdapterFixture();

// Real SDK sessions (up to three per test) are slow under load: the default 20 s is too short there.
describe('Claude adapter against the real SDK and the scripted model server', { timeout: 240_000 }, () => {
  it('sends the prompt it is given, as it is, as the user message (it assembles none itself)', async () => {
    await adapterFor({
      name: 'prompt',
      routes: [
        {
          name: 'implementor',
          steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'read it' } }],
        },
      ],
    });
    // The runtime alone, with no engine state or provider anywhere in reach.
    const adapter = createBareClaudeAdapter({
      logging: { agentSessions: false, logsDir: join(fixture.stateDir, 'logs') },
      extraEnv: { ANTHROPIC_BASE_URL: fixture.server!.url, ANTHROPIC_API_KEY: 'test-key' },
    });
    const params = await startParamsFor({ ...implementorParams, sessionID: crypto.randomUUID() });
    // Context assembly's prompt: the item, then the repository's memories (none yet).
    expect(params.prompt).toMatch(
      /^## Work Item #1 — Greet the user\n\nObjective: greet\.\n\n### Status\nready\n\n## Memories\n[\s\S]*No memories yet\.\n$/,
    );
    await (await adapter.startAgent(params)).result;
    const sent = fixture.server!.requests.find((request) => request.route === 'implementor');
    // The CLI adds its own reminder blocks before it; the prompt itself is one text block, unchanged.
    const [firstUser] = (sent!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(firstUser?.content).toContainEqual(expect.objectContaining({ type: 'text', text: params.prompt }));
  });

  it('implementor: files written, edited, committed and left uncommitted become one exact patch', async () => {
    const adapter = await adapterFor(
      {
        name: 'implementor-patch',
        onUnmetExpectation: 'reject',
        routes: [
          {
            name: 'implementor',
            match: { firstUserIncludes: '## Work Item #1 — Greet the user' },
            steps: [
              {
                content: [
                  {
                    type: 'tool_use',
                    name: 'Write',
                    input: {
                      file_path: '{{cwd}}/src/greet.ts',
                      content: 'export const greet = () => "hi";\n',
                    },
                  },
                ],
              },
              {
                expect: { lastToolResultIncludes: 'File created successfully' },
                content: [
                  {
                    type: 'tool_use',
                    name: 'Bash',
                    input: {
                      command: 'git add src/greet.ts && git commit -q -m "Add greet"',
                      description: 'Commit',
                    },
                  },
                ],
              },
              {
                content: [
                  { type: 'tool_use', name: 'Read', input: { file_path: '{{cwd}}/src/existing.txt' } },
                ],
              },
              {
                content: [
                  {
                    type: 'tool_use',
                    name: 'Edit',
                    input: {
                      file_path: '{{cwd}}/src/existing.txt',
                      old_string: 'line two',
                      new_string: 'line 2 (edited)',
                    },
                  },
                ],
              },
              {
                content: [
                  {
                    type: 'tool_use',
                    name: 'Bash',
                    input: { command: 'git mv src/remove-me.txt src/renamed.txt', description: 'Rename' },
                  },
                ],
              },
              {
                expect: { lastToolResultIsError: false },
                content: [
                  {
                    type: 'tool_use',
                    name: 'Write',
                    input: { file_path: '{{cwd}}/notes/todo.md', content: 'no trailing newline' },
                  },
                ],
              },
              {
                structuredOutput: {
                  role: 'implementor',
                  outcome: 'completed',
                  summary: 'Added greet, edited existing, removed obsolete.',
                },
              },
            ],
          },
        ],
      },
      { transcripts: true },
    );
    const handle = await adapter.startAgent(implementorParams);
    const texts: string[] = [];
    const reading = (async () => {
      for await (const chunk of handle.output) texts.push(chunk);
    })();
    const result = await handle.result;
    await reading;
    expect(fixture.server!.report().problems).toEqual([]);
    expect(result.role === 'implementor' && result.outcome).toBe('completed');
    const patch = result.role === 'implementor' ? result.patch : null;
    expect(patch).toBeTruthy();

    // The worktree and the local branch are gone.
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
    expect(branchExists(AGENT_BRANCH)).toBe(false);

    // The patch applies to the base commit and reproduces every file byte for byte.
    const check = await createTempGitRepo();
    try {
      await check.git(['fetch', '--quiet', fixture.repo.root, 'main']);
      await check.git(['checkout', '--quiet', 'FETCH_HEAD']);
      const patchFile = join(check.root, '..', `${implementorParams.sessionID}.patch`);
      await import('node:fs/promises').then((fs) => fs.writeFile(patchFile, patch!));
      await check.git(['apply', '--index', patchFile]);
      expect(await readFile(join(check.root, 'src/greet.ts'), 'utf8')).toBe(
        'export const greet = () => "hi";\n',
      );
      expect(await readFile(join(check.root, 'src/existing.txt'), 'utf8')).toBe(
        'line one\nline 2 (edited)\n',
      );
      expect(await readFile(join(check.root, 'notes/todo.md'), 'utf8')).toBe('no trailing newline');
      expect(existsSync(join(check.root, 'src/remove-me.txt'))).toBe(false);
      expect(await readFile(join(check.root, 'src/renamed.txt'), 'utf8')).toBe('obsolete\n');
      await rm(patchFile, { force: true });
    } finally {
      await check.cleanup();
    }
    expect(handle.usage?.()).toEqual(expect.objectContaining({ turns: expect.any(Number) }));

    // The transcript: header with the engine's session id, one line per message, result line, footer.
    expect(handle.logFilePath).toBeTruthy();
    const transcript = await readFile(handle.logFilePath!, 'utf8');
    expect(transcript).toContain('=== Agent Session ===');
    expect(transcript).toContain(`Session ID: ${implementorParams.sessionID}`);
    expect(transcript).toContain('Issue: #1');
    expect(transcript).toContain('[tool_use] Write');
    expect(transcript).toMatch(/RESULT success/);
    expect(transcript).toContain('=== Session End ===');
    expect(transcript).toContain('Outcome: completed');
    expect(transcript).not.toContain('test-key');
  });

  it('the transcript records tool input (secrets redacted, long content cut) and full tool output', async () => {
    const secretName = 'FLOTILLA_TRANSCRIPT_TEST_TOKEN';
    const secret = `tok-${implementorParams.sessionID.slice(0, 8)}-9f8e7d6c5b`;
    const longContent = Array.from({ length: 30 }, (_, index) => `note ${index + 1}`).join('\n');
    process.env[secretName] = secret; // the default redactor reads this process's environment
    try {
      const adapter = await adapterFor(
        {
          name: 'implementor-transcript',
          onUnmetExpectation: 'reject',
          routes: [
            {
              name: 'implementor',
              match: { firstUserIncludes: '## Work Item #1 — Greet the user' },
              steps: [
                {
                  content: [
                    {
                      type: 'tool_use',
                      name: 'Bash',
                      input: { command: `seq 1 40 && echo "token=${secret}"`, description: 'Count' },
                    },
                  ],
                },
                {
                  expect: { lastToolResultIncludes: '40' },
                  content: [
                    {
                      type: 'tool_use',
                      name: 'Write',
                      input: { file_path: '{{cwd}}/notes/long.md', content: `${longContent}\n` },
                    },
                  ],
                },
                {
                  structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Wrote notes.' },
                },
              ],
            },
          ],
        },
        { transcripts: true, permissive: true },
      );
      const handle = await adapter.startAgent(implementorParams);
      const result = await handle.result;
      expect(fixture.server!.report().problems).toEqual([]);
      expect(result.role === 'implementor' && result.outcome).toBe('completed');

      const transcript = await readFile(handle.logFilePath!, 'utf8');
      expect(transcript).toContain(
        `[tool_use] Bash\n  command: seq 1 40 && echo "token=[REDACTED:${secretName}]"\n  description: Count\n`,
      );
      expect(transcript).toMatch(/\[tool_use\] Write\n {2}file_path: \/\S+\/notes\/long\.md\n {2}content:\n/);
      expect(transcript).toContain('    note 20\n    (… 10 more lines)\n');
      expect(transcript).not.toContain('note 21');
      // The tool's output is recorded whole, not cut to its first line.
      expect(transcript).toMatch(/\[tool_result\] ok\n {2}1\n {2}2\n[\s\S]* {2}40\n {2}token=\[REDACTED:/);
      expect(transcript).not.toContain(secret);
    } finally {
      delete process.env[secretName];
    }
  });

  it('a Bash command the validator blocks does not run, and the model receives the block reason', async () => {
    const adapter = await adapterFor({
      name: 'blocked',
      onUnmetExpectation: 'reject',
      routes: [
        {
          name: 'implementor',
          match: { firstUserIncludes: '## Work Item #1' },
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'Bash', input: { command: 'rm -rf src', description: 'Delete' } },
              ],
            },
            {
              expect: { lastToolResultIncludes: 'Blocked: ', lastToolResultIsError: true },
              structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'I may not delete src.' },
            },
          ],
        },
      ],
    });
    const handle = await adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() });
    const result = await handle.result;
    expect(result).toEqual({
      role: 'implementor',
      outcome: 'blocked',
      summary: 'I may not delete src.',
      patch: null,
    });
    expect(fixture.server!.report().problems).toEqual([]);
    expect(existsSync(join(fixture.repo.root, 'src/existing.txt'))).toBe(true);
  });

  it('planner and reviewer receive seed-001 prompts (checked from the recorded requests)', async () => {
    const revision = await fixture.provider.revisionWriter.createFromPatch({
      workItemID: '1',
      patch:
        'diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+x\n',
      branchName: 'flotilla/1',
      title: 'Greet the user',
      body: 'Closes #1',
    });
    fixture.state = {
      ...fixture.state,
      workItems: { '1': { ...fixture.state.workItems['1']!, status: 'review', linkedRevision: revision.id } },
      revisions: { [revision.id]: revision },
    };
    const adapter = await adapterFor({
      name: 'prompts',
      onUnmetExpectation: 'reject',
      routes: [
        {
          name: 'planner',
          match: { firstUserIncludes: '## Changed Specs' },
          steps: [
            {
              expect: {
                firstUserIncludes: [
                  '### docs/specs/feature.md (added)',
                  'The app greets.',
                  '## Existing Work Items',
                  '### WorkItem #1 — Greet the user',
                  'Objective: greet.',
                ],
                systemIncludes: ['You are a test agent.', 'Project conventions: be exact.'],
              },
              structuredOutput: { role: 'planner', create: [], close: [], update: [] },
            },
          ],
        },
        {
          name: 'reviewer',
          match: { firstUserIncludes: `## Revision #${revision.id}` },
          steps: [
            {
              expect: {
                firstUserIncludes: [
                  '## Work Item #1 — Greet the user',
                  '### Changed Files',
                  '#### x.txt (added)',
                ],
              },
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'approve', summary: 'Fine.', comments: [] },
              },
            },
          ],
        },
      ],
    });
    const planner = await adapter.startAgent({
      role: 'planner',
      sessionID: crypto.randomUUID(),
      specPaths: ['docs/specs/feature.md'],
    });
    expect(await planner.result).toEqual({ role: 'planner', create: [], close: [], update: [] });
    const reviewer = await adapter.startAgent({
      role: 'reviewer',
      sessionID: crypto.randomUUID(),
      workItemID: '1',
      revisionID: revision.id,
    });
    expect(await reviewer.result).toEqual({
      role: 'reviewer',
      review: { verdict: 'approve', summary: 'Fine.', comments: [] },
    });
    expect(fixture.server!.report().problems).toEqual([]);
    // Planner and reviewer run in the repository root: no worktree was made.
    expect(existsSync(join(fixture.repo.root, '.worktrees'))).toBe(false);
  });

  it('a missing agent definition rejects startAgent and leaves no worktree behind', async () => {
    const adapter = await adapterFor({
      name: 'none',
      routes: [{ name: 'unused', steps: [{ text: 'unused' }] }],
    });
    await rm(join(fixture.repo.root, '.claude/agents/implementor.md'));
    await expect(
      adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() }),
    ).rejects.toThrow(/implementor\.md/);
    expect(existsSync(join(fixture.repo.root, AGENT_WORKTREE))).toBe(false);
    expect(branchExists(AGENT_BRANCH)).toBe(false);
  });
});
