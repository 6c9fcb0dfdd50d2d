import { afterEach } from 'vitest';
import type { Engine } from '../../src/engine/create-engine.ts';
import type { ModelServer } from '../../src/model-server/index.ts';
import type { InMemoryProvider } from './in-memory-provider/create-in-memory-provider.ts';
import type { TempGitRepo } from './shared/create-temp-git-repo.ts';

/** An engine on the in-memory provider, its model server and its repository, as the runtime tests build it. */
export interface EngineSetup {
  engine: Engine;
  provider: InMemoryProvider;
  server: ModelServer;
  repo: TempGitRepo;
}

/** Agent definition file with the given tools, for `.claude/agents/<role>.md`. */
export const buildAgentFile = (tools: string) =>
  `---\ndescription: agent\ntools: ${tools}\n---\nYou are an agent.\n`;

/**
 * Registers the teardown of each test's setup (engine stopped, then server closed, then repository
 * removed) and returns the function that hands a setup over to it.
 */
export function trackEngineSetup(): (setup: EngineSetup) => EngineSetup {
  let current: EngineSetup | null = null;
  afterEach(async () => {
    if (!current) return;
    const { engine, server, repo } = current;
    current = null;
    await engine.stop();
    await server.close();
    await repo.cleanup();
    // Stopping waits for running agents (up to the engine's shutdownTimeout): longer than the default hook's.
  }, 60_000);
  return (setup) => {
    current = setup;
    return setup;
  };
}
