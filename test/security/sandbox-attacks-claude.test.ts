import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer } from '../../src/model-server/index.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import {
  failureOf,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
  startParamsFor,
} from '../support/claude-adapter-fixture.ts';
import {
  type AttackSetup,
  createAttackSetup,
  expectAttacksContained,
} from '../support/sandbox-attack-kit.ts';
import { PLANTED_SECRETS } from '../support/shared/planted-secrets.ts';

/**
 * The OS layer alone, on the real SDK binary with the scripted model server: the bash validator is switched
 * off (every command allowed), and an implementor runs, through its real Bash tool, the attacks the sandbox
 * issue found getting past the parsers (test/support/sandbox-attack-kit.ts). Afterwards nothing outside its
 * worktree has changed and no planted secret reached the model, the transcript or the logs.
 */
installClaudeAdapterFixture();

let setup: AttackSetup | undefined;
afterEach(async () => {
  await setup?.cleanup();
  setup = undefined;
});

const bash = (command: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Bash', input: { command, description: 'x' } }],
});

describe('an implementor attacking from inside the OS sandbox (Claude runtime, validator off)', () => {
  it('changes nothing outside its worktree and reads no planted secret', async () => {
    const repo = fixture.repo.root;
    setup = await createAttackSetup(repo);
    fixture.server = await createModelServer({
      name: 'attacks',
      routes: [
        {
          name: 'implementor',
          match: { firstUserIncludes: '## Work Item #1' },
          steps: [
            bash(setup.attacks.join('\n')),
            bash(
              'printf ok > inside.txt && git add -A && git commit -qm inside && git log --oneline | head -1',
            ),
            {
              expect: { lastToolResultIncludes: 'inside' },
              structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Tried.' },
            },
          ],
        },
      ],
    });
    const logger = createRecordingLogger();
    const adapter = createClaudeAdapter({
      repoRoot: repo,
      defaultBranch: 'main',
      contextPaths: [],
      bashValidatorHook: async () => ({}),
      logger,
      setupCommand: 'none',
      stateDir: fixture.stateDir,
      maxAgentDuration: 120,
      logging: { agentSessions: true, logsDir: join(fixture.stateDir, 'logs') },
      baseEnv: { ...process.env, ...PLANTED_SECRETS },
      extraEnv: {
        ANTHROPIC_BASE_URL: fixture.server.url,
        ANTHROPIC_API_KEY: 'test-key',
        GIT_AUTHOR_NAME: 'Agent',
        GIT_AUTHOR_EMAIL: 'agent@flotilla.invalid',
        GIT_COMMITTER_NAME: 'Agent',
        GIT_COMMITTER_EMAIL: 'agent@flotilla.invalid',
      },
      sandbox: setup.sandbox,
    });
    const handle = await adapter.startAgent(await startParamsFor(implementorParams));
    const failure = await failureOf(handle);

    // The symlinks into .git leave with the patch, which is refused on the way out.
    expect(String(failure)).toMatch(/refused/);
    expect(fixture.server.report().problems).toEqual([]);
    const requests = JSON.stringify(fixture.server.requests.map((request) => request.body));
    // The attacks ran and were refused by the file system, not skipped; the legitimate commit worked inside.
    expect(requests).toContain('Read-only file system');
    expect(requests).toContain('inside');
    await expectAttacksContained(setup, {
      'model requests': requests,
      transcript: await readFile(handle.logFilePath ?? '', 'utf8'),
      logs: JSON.stringify(logger.records),
    });
  });
});
