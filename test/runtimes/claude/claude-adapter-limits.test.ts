/**
 * Provider limits through the real SDK: the scripted model server answers 429 (with retry-after), 529 or a
 * subscription's usage-limit message, the CLI gives up (CLAUDE_CODE_MAX_RETRIES=0 keeps its own retries out
 * of the way), and the adapter reports a limit failure — never a plain error, which would count as a failed
 * attempt. A run given an account reaches the model with that account's key, and no other.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentRunFailure,
  type AgentStartParams,
} from '../../../src/engine/runtime-contract/runtime-contract.ts';
import { createBashValidatorHook } from '../../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer } from '../../../src/model-server/index.ts';
import type { ErrorSpec } from '../../../src/model-server/scenario-schema.ts';
import { createClaudeAdapter } from '../../../src/runtimes/claude/create-claude-adapter.ts';
import {
  fixture,
  installClaudeAdapterFixture,
  startParamsFor,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

/** `maxRetries`: the CLI's own retries (CLAUDE_CODE_MAX_RETRIES; null: the CLI's default). */
async function failureFor(
  error: ErrorSpec,
  params: Partial<AgentStartParams> = {},
  maxRetries: string | null = '0',
) {
  // An error answered only `times` times needs a reply after it (never reached here).
  const step = { error, ...(error.times !== undefined && { text: 'never reached' }) };
  fixture.server = await createModelServer({ routes: [{ name: 'limited', steps: [step] }] });
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
    baseEnv: { ...process.env, WORK_KEY: 'key-of-work', OTHER_KEY: 'key-of-other' },
    extraEnv: {
      ANTHROPIC_BASE_URL: fixture.server.url,
      ANTHROPIC_API_KEY: 'test-key',
      ...(maxRetries !== null && { CLAUDE_CODE_MAX_RETRIES: maxRetries }),
    },
    accounts: { work: { ANTHROPIC_API_KEY: '$WORK_KEY' }, other: { ANTHROPIC_API_KEY: '$OTHER_KEY' } },
  });
  const start = await startParamsFor({
    role: 'planner',
    sessionID: crypto.randomUUID(),
    specPaths: ['docs/specs/feature.md'],
  });
  const handle = await adapter.startAgent({ ...start, ...params } as AgentStartParams);
  const failure = await handle.result.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(failure).toBeInstanceOf(AgentRunFailure);
  return failure as AgentRunFailure;
}

describe('Claude adapter: provider limits', () => {
  it('reports a 429 the CLI gave up on as a rate limit', async () => {
    const failure = await failureFor({ status: 429, retryAfterMs: 10 });
    expect(failure.reason).toBe('rate-limit');
    expect(failure.message).toContain('429');
  }, 60_000);

  it('a 429 the CLI retried after its retry-after resets when that retry-after has passed again', async () => {
    const before = Date.now();
    // retry-after: 2 s; the CLI waits it (plus up to a quarter) once, then gets the 429 again and gives up.
    const failure = await failureFor({ status: 429, retryAfterMs: 2000, times: 2 }, {}, '1');
    const after = Date.now();
    expect(failure.reason).toBe('rate-limit');
    expect(fixture.server?.requests.filter((request) => request.kind === 'step')).toHaveLength(2);
    // Measured from the second 429: at least the 2 s asked for, at most a quarter more (the CLI's jitter).
    expect(failure.resetsAt).toBeGreaterThanOrEqual(before + 2000 + 2000);
    expect(failure.resetsAt).toBeLessThanOrEqual(after + 2500);
  }, 60_000);

  it('a retry-after longer than the CLI will wait stays unknown (it gives up at once, saying nothing)', async () => {
    const failure = await failureFor({ status: 429, retryAfterMs: 120_000 }, {}, null);
    expect(failure.reason).toBe('rate-limit');
    expect(failure.resetsAt).toBeNull();
    expect(fixture.server?.requests.filter((request) => request.kind === 'step')).toHaveLength(1);
  }, 60_000);

  it('reports a 529 as overloaded', async () => {
    const failure = await failureFor({ status: 529, shouldRetry: false });
    expect(failure.reason).toBe('overloaded');
  }, 60_000);

  it('reports a usage limit with its reset time', async () => {
    const resetsAt = Math.floor(Date.now() / 1000) + 3600;
    const failure = await failureFor({ status: 429, message: `Claude AI usage limit reached|${resetsAt}` });
    expect(failure.reason).toBe('usage-limit');
    expect(failure.resetsAt).toBe(resetsAt * 1000);
  }, 60_000);

  it('reports a usage limit without a reset time, and the run used its account’s key only', async () => {
    const failure = await failureFor({ status: 429, message: "You've hit your limit" }, { account: 'work' });
    expect(failure.reason).toBe('usage-limit');
    expect(failure.resetsAt).toBeNull();
    const keys = new Set(fixture.server?.requests.map((request) => request.headers['x-api-key']));
    expect([...keys]).toEqual(['key-of-work']);
  }, 60_000);
});
