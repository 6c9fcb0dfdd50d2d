import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  adapterFor,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

// A directory outside the repository: what "anywhere else on the machine" stands for.
let outside: string;
beforeEach(() => {
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'flotilla-outside-')));
});
afterEach(async () => {
  await rm(outside, { recursive: true, force: true });
});

const blocked = {
  lastToolResultIncludes: 'Blocked: Write may not use file_path',
  lastToolResultIsError: true,
};

describe('path guard with the real SDK and the scripted model server', () => {
  it('implementor: Write into the repository .git/hooks and outside the worktree is blocked and leaves no file; inside succeeds', async () => {
    const adapter = await adapterFor({
      name: 'path-guard-implementor',
      onUnmetExpectation: 'reject',
      vars: { repo: fixture.repo.root, outside },
      routes: [
        {
          name: 'implementor',
          match: { firstUserIncludes: '## Work Item #1' },
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: {
                    file_path: '{{repo}}/.git/hooks/pre-commit',
                    content: '#!/bin/sh\ntouch /tmp/pwned\n',
                  },
                },
              ],
            },
            {
              expect: {
                ...blocked,
                lastToolResultIncludes: [blocked.lastToolResultIncludes, '.git directory'],
              },
              content: [
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: '{{outside}}/escape.txt', content: 'escaped\n' },
                },
              ],
            },
            {
              expect: {
                ...blocked,
                lastToolResultIncludes: [blocked.lastToolResultIncludes, 'outside the worktree'],
              },
              content: [
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: '{{cwd}}/src/inside.ts', content: 'export const inside = true;\n' },
                },
              ],
            },
            {
              expect: { lastToolResultIncludes: 'File created successfully', lastToolResultIsError: false },
              structuredOutput: {
                role: 'implementor',
                outcome: 'completed',
                summary: 'Wrote src/inside.ts.',
              },
            },
          ],
        },
      ],
    });
    const handle = await adapter.startAgent({ ...implementorParams, sessionID: crypto.randomUUID() });
    const result = await handle.result;
    expect(fixture.server!.report().problems).toEqual([]);
    expect(result).toMatchObject({ role: 'implementor', outcome: 'completed' });
    const patch = result.role === 'implementor' ? (result.patch ?? '') : '';
    expect(patch).toContain('+++ b/src/inside.ts');
    expect(patch).not.toContain('escape');
    expect(existsSync(join(fixture.repo.root, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
  }, 120_000);

  it('planner: reads the repository, but not /etc/passwd or the repository .git', async () => {
    const adapter = await adapterFor({
      name: 'path-guard-planner',
      onUnmetExpectation: 'reject',
      vars: { repo: fixture.repo.root },
      routes: [
        {
          name: 'planner',
          match: { firstUserIncludes: '## Changed Specs' },
          steps: [
            { content: [{ type: 'tool_use', name: 'Read', input: { file_path: '/etc/passwd' } }] },
            {
              expect: { lastToolResultIncludes: 'Blocked: Read may not use', lastToolResultIsError: true },
              content: [{ type: 'tool_use', name: 'Read', input: { file_path: '{{repo}}/.git/config' } }],
            },
            {
              expect: { lastToolResultIncludes: '.git directory', lastToolResultIsError: true },
              content: [
                { type: 'tool_use', name: 'Read', input: { file_path: '{{repo}}/docs/specs/feature.md' } },
              ],
            },
            {
              expect: { lastToolResultIncludes: 'The app greets.', lastToolResultIsError: false },
              structuredOutput: { role: 'planner', create: [], close: [], update: [] },
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
    expect(fixture.server!.report().problems).toEqual([]);
    // The blocked reads never reached the model: no tool_result carried their contents.
    const requests = JSON.stringify(fixture.server!.requests);
    expect(requests).not.toContain(readFileSync('/etc/passwd', 'utf8').split('\n')[0]!);
    expect(requests).not.toContain('repositoryformatversion');
  }, 120_000);
});
