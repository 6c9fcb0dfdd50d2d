/**
 * The Claude CLI with no model credential ends the session with "Not logged in · Please run /login" before
 * sending any request: the adapter reports it as a credentials failure (which the engine does not retry),
 * saying what to set.
 */
import { expect, it } from 'vitest';
import { isCredentialsFailure } from '../../../src/domain/index.ts';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/runtime-contract.ts';
import { createBashValidatorHook } from '../../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer } from '../../../src/model-server/index.ts';
import { createClaudeAdapter } from '../../../src/runtimes/claude/create-claude-adapter.ts';
import {
  fixture,
  installClaudeAdapterFixture,
  startParamsFor,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

it('reports "Not logged in" as a credentials failure naming what to set', async () => {
  // Only 127.0.0.1 is reachable, should the CLI try to send anything.
  fixture.server = await createModelServer({ routes: [{ name: 'any', steps: [{ text: 'unused' }] }] });
  const {
    ANTHROPIC_API_KEY: _key,
    ANTHROPIC_AUTH_TOKEN: _token,
    CLAUDE_CODE_OAUTH_TOKEN: _oauth,
    ...baseEnv
  } = process.env;
  const adapter = createClaudeAdapter({
    repoRoot: fixture.repo.root,
    defaultBranch: 'main',
    contextPaths: [],
    bashValidatorHook: createBashValidatorHook(),
    logger: createRecordingLogger(),
    setupCommand: 'none',
    stateDir: fixture.stateDir,
    maxAgentDuration: 120,
    logging: { agentSessions: false, logsDir: fixture.stateDir },
    baseEnv,
    extraEnv: { ANTHROPIC_BASE_URL: fixture.server.url },
  });
  const handle = await adapter.startAgent(
    await startParamsFor({
      role: 'planner',
      sessionID: crypto.randomUUID(),
      specPaths: ['docs/specs/feature.md'],
    }),
  );
  const failure = await handle.result.then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(AgentRunFailure);
  const message = (failure as AgentRunFailure).message;
  expect(isCredentialsFailure(message)).toBe(true);
  expect(message).toContain('Not logged in');
  expect(message).toContain('Set ANTHROPIC_API_KEY');
  expect(fixture.server.requests).toEqual([]);
}, 60_000);
