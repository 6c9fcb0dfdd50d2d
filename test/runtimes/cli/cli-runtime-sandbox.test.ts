import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/index.ts';
import { createSandbox } from '../../../src/sandbox/create-sandbox.ts';
import type { Sandbox } from '../../../src/sandbox/sandbox-types.ts';
import type { FakeAgentRound } from '../../support/cli-runtime/fake-agent-cli.ts';
import {
  type CliRuntimeFixture,
  COMPLETED,
  createCliRuntimeFixture,
  implementorParams,
} from '../../support/cli-runtime-fixture.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

// Each run starts node with tsx for the fake agent, inside bubblewrap: slow under a loaded CPU.
vi.setConfig({ testTimeout: 60_000 });

async function failureOf(promise: Promise<unknown>): Promise<AgentRunFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AgentRunFailure))
    throw new Error(`expected an AgentRunFailure, got ${String(error)}`);
  return error;
}

describe('CLI runtime in the OS sandbox: refusals are loud', () => {
  let fixture: CliRuntimeFixture;
  beforeEach(async () => {
    fixture = await createCliRuntimeFixture();
  });
  afterEach(async () => {
    await fixture.cleanup();
  });

  /**
   * The runtime with the fake agent in `sandbox`: its script lies in the repository (readable inside; the
   * fixture's directory under the real /tmp is hidden) and it logs its calls to the sandbox's private /tmp.
   */
  const sandboxedRuntime = async (rounds: FakeAgentRound[], sandbox: Sandbox) => {
    const script = join(fixture.repo.root, '.fake-agent-script.json');
    await writeFile(script, JSON.stringify({ rounds }));
    return fixture.runtimeFor([], {
      sandbox,
      baseEnv: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        FAKE_AGENT_SCRIPT: script,
        FAKE_AGENT_CALLS: '/tmp/fake-agent-calls.jsonl',
        // A model key and no base URL: the agent may reach api.anthropic.com through the sandbox's proxy.
        ANTHROPIC_API_KEY: 'sk-ant-test-model-key',
      },
      passThroughEnv: ['FAKE_AGENT_SCRIPT', 'FAKE_AGENT_CALLS'],
    });
  };

  it('names a refused connection in the transcript and in the failure, not only "changed nothing"', async () => {
    const runtime = await sandboxedRuntime(
      [
        {
          steps: [
            { run: 'curl -sS --max-time 20 https://example.invalid/ || echo "curl failed"' },
            { signal: COMPLETED },
          ],
        },
      ],
      createTestSandbox(),
    );
    const handle = await runtime.startAgent(implementorParams());
    const failure = await failureOf(handle.result);
    expect(failure.message).toContain('the implementor reported completed but changed nothing (empty patch)');
    expect(failure.message).toContain(
      'the OS sandbox refused 1 connection(s) to example.invalid:443 (not in sandbox.network.allow)',
    );
    const transcript = readFileSync(handle.logFilePath ?? '', 'utf8');
    expect(transcript).toContain(
      "the OS sandbox refused a connection to example.invalid:443: not in the agent's network allow-list",
    );
    // curl saw the proxy's 403, and the failure reason is in the transcript too.
    expect(transcript).toContain('curl failed');
    expect(transcript).toContain('refused 1 connection(s) to example.invalid:443');
  });

  it('says why when the sandbox cannot start, and the agent never runs', async () => {
    const unavailable = createSandbox(
      { mode: 'on', networkAllow: [], passEnv: [], allowRead: [], denyRead: [] },
      { checkAvailability: () => ({ available: false, problems: ['bwrap not found on PATH'] }) },
    );
    const runtime = await sandboxedRuntime([{ steps: [{ signal: COMPLETED }] }], unavailable);
    const handle = await runtime.startAgent(implementorParams());
    const failure = await failureOf(handle.result);
    expect(failure.message).toContain('the OS sandbox could not start');
    expect(failure.message).toContain('bwrap not found on PATH');
    expect(failure.message).not.toContain('changed nothing');
    expect(readFileSync(handle.logFilePath ?? '', 'utf8')).toContain('bwrap not found on PATH');
  });
});
