/**
 * The Claude CLI with no model credential ends the session with "Not logged in · Please run /login" before
 * sending any request: the adapter reports it as a credentials failure (which the engine does not retry),
 * saying what to set.
 */
import { expect, it } from 'vitest';
import { isCredentialsFailure } from '../../../src/domain/index.ts';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/runtime-contract.ts';
import { createModelServer } from '../../../src/model-server/index.ts';
import {
  createBareClaudeAdapter,
  failureOf,
  fixture,
  installClaudeAdapterFixture,
  plannerStartParams,
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
  const adapter = createBareClaudeAdapter({ baseEnv, extraEnv: { ANTHROPIC_BASE_URL: fixture.server.url } });
  const failure = await failureOf(await adapter.startAgent(await plannerStartParams()));
  expect(failure).toBeInstanceOf(AgentRunFailure);
  const message = (failure as AgentRunFailure).message;
  expect(isCredentialsFailure(message)).toBe(true);
  expect(message).toContain('Not logged in');
  expect(message).toContain('Set ANTHROPIC_API_KEY');
  expect(fixture.server.requests).toEqual([]);
}, 60_000);
