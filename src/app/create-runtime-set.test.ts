import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type FlotillaConfig, flotillaConfigFileSchema, resolveFlotillaPaths } from '../config/index.ts';
import { silentLogger } from '../logging/logger.ts';
import { createRuntimeSet } from './create-runtime-set.ts';

let repoRoot = '';
beforeEach(() => {
  repoRoot = mkdtempSync(join(tmpdir(), 'flotilla-runtime-set-'));
  // No OpenAI key anywhere: codex's preflight fails on this machine as on one without the key.
  vi.stubEnv('OPENAI_API_KEY', undefined);
  vi.stubEnv('CODEX_API_KEY', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(repoRoot, { recursive: true, force: true });
});

/** Every role on codex, whose preflight wants an OpenAI key. */
function codexConfig(): FlotillaConfig {
  return {
    ...flotillaConfigFileSchema.parse({
      runtimes: { planner: 'codex', implementor: 'codex', reviewer: 'codex' },
    }),
    defaultBranch: 'main',
  };
}

function runtimeSetOf(agentsRunElsewhere: boolean) {
  return createRuntimeSet({
    repoRoot,
    config: codexConfig(),
    logger: silentLogger,
    paths: resolveFlotillaPaths(repoRoot),
    agentsRunElsewhere,
  });
}

it('refuses to start a process that runs agents when a runtime cannot run, naming it', async () => {
  await expect(runtimeSetOf(false)).rejects.toThrow(
    /runtime 'codex' \(planner, implementor, reviewer\) cannot run: .*no OpenAI API key/,
  );
});

it("starts a cluster's controller whose runs go to the workers without their binaries or keys", async () => {
  const runtimeSet = await runtimeSetOf(true);
  expect(runtimeSet.sandboxMode).toBe('on');
  await runtimeSet.close();
});
