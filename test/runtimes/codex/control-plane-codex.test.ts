/**
 * `runtimes.<role>: "codex"` in flotilla.config.json: `flotilla run`'s wiring (createControlPlane) refuses to
 * start when codex cannot run (no key), naming the roles and the variable to set, and starts when it can.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createControlPlane } from '../../../src/app/create-control-plane.ts';
import { createDemoRepository } from '../../../src/app/demo/create-demo-repository.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function codexConfiguredRepo(): Promise<string> {
  const repo = await createDemoRepository();
  cleanups.push(() => rm(repo.root, { recursive: true, force: true }));
  const configPath = join(repo.root, 'flotilla.config.json');
  const config: Record<string, unknown> = JSON.parse(await readFile(configPath, 'utf8'));
  await writeFile(
    configPath,
    JSON.stringify({ ...config, runtimes: { planner: 'claude', implementor: 'codex', reviewer: 'codex' } }),
  );
  return repo.root;
}

describe('runtime codex in the config', () => {
  it('is refused at start without an OpenAI key, naming the roles and the variables', async () => {
    const root = await codexConfiguredRepo();
    const loaded = await loadConfig(root);
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    expect(loaded.config.runtimes).toEqual({ planner: 'claude', implementor: 'codex', reviewer: 'codex' });

    await expect(
      createControlPlane({
        repoRoot: root,
        config: loaded.config,
        logger: silentLogger,
        extraEnv: { OPENAI_API_KEY: '', CODEX_API_KEY: '' },
      }),
    ).rejects.toThrow(
      "runtime 'codex' (implementor, reviewer) cannot run: no OpenAI API key for codex: set CODEX_API_KEY or OPENAI_API_KEY",
    );
  });

  it('starts with a key (the lock is released by the refusal above: a second start works)', async () => {
    const root = await codexConfiguredRepo();
    const loaded = await loadConfig(root);
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const extraEnv = { OPENAI_API_KEY: '', CODEX_API_KEY: '' };
    await expect(
      createControlPlane({ repoRoot: root, config: loaded.config, logger: silentLogger, extraEnv }),
    ).rejects.toThrow(/cannot run/);
    const controlPlane = await createControlPlane({
      repoRoot: root,
      config: loaded.config,
      logger: silentLogger,
      extraEnv: { OPENAI_API_KEY: 'sk-test' },
    });
    cleanups.push(() => controlPlane.close());
    expect(controlPlane.engine.getState().agentRuns).toEqual({});
  });
});
