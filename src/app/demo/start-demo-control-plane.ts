import type { FlotillaConfig } from '../../config/index.ts';
import { createModelServer, type ModelServer } from '../../model-server/create-model-server.ts';
import { loadScenarioFile } from '../../model-server/load-scenario-file.ts';
import { type ControlPlane, type ControlPlaneOptions, createControlPlane } from '../create-control-plane.ts';
import { buildDemoAgentProgram } from './build-demo-agent-program.ts';
import type { DemoOptions } from './demo-options.ts';
import type { findRuntimeDemo } from './demo-runtimes.ts';
import type { DemoGitHub } from './start-demo-github.ts';

export interface DemoControlPlaneInput {
  options: DemoOptions;
  runtime: string;
  /** How the runtime's demo runs (its descriptor's `demo`). */
  demo: NonNullable<ReturnType<typeof findRuntimeDemo>>;
  repo: { root: string; gitEnv: Record<string, string> };
  config: FlotillaConfig;
  /** The fake GitHub the demo plays against; null on the local provider. */
  github: DemoGitHub | null;
}

export interface DemoControlPlane {
  controlPlane: ControlPlane;
  /** The scripted model server the roles talk to; null when they run the demo agent CLI (no model). */
  server: ModelServer | null;
}

/**
 * The demo's control plane, wired as `flotilla run` wires one, its roles on the runtime's demo: the demo
 * agent CLI (no model at all) or the runtime itself against the scripted model server, started here. When
 * it cannot start, the server and the fake GitHub are closed again.
 */
export async function startDemoControlPlane(input: DemoControlPlaneInput): Promise<DemoControlPlane> {
  const { options, runtime, demo, repo, config, github } = input;
  const { print, logger } = options;
  const base: ControlPlaneOptions = {
    repoRoot: repo.root,
    config,
    logger,
    ...(github !== null && {
      providerEnv: github.providerEnv,
      ...(github.changeFeed !== null && { changeFeed: github.changeFeed }),
    }),
  };
  let server: ModelServer | null = null;
  try {
    if ('agentProgram' in demo) {
      // No model at all: every role runs the demo agent CLI through the runtime, as configured runtimes do.
      print(`every role on ${runtime} (the scripted demo agent CLI; no model server)`);
      const settings = demo.agentProgram(buildDemoAgentProgram());
      const controlPlane = await createControlPlane({
        ...base,
        config: { ...config, runtimes: { planner: settings, implementor: settings, reviewer: settings } },
        // Its usage is made up: recorded as `scripted` (marked, never counted with real spend).
        scriptedCli: true,
        extraEnv: { ...repo.gitEnv },
      });
      return { controlPlane, server };
    }
    server = await createModelServer(await loadScenarioFile(demo.scenarioPath));
    print(`scripted model server: ${server.url} (every role on ${runtime})`);
    // The same wiring as `flotilla run`: the configured provider (local: SQLite, revision branches, `npm
    // test` as checks; or the fake GitHub), run history, the runtime — pointed at the scripted model server.
    const controlPlane = await createControlPlane({
      ...base,
      extraEnv: { ...repo.gitEnv, ...options.agentEnv?.(server.url) },
      scriptedModelServerUrl: server.url,
      scriptedRuntime: runtime,
    });
    return { controlPlane, server };
  } catch (error) {
    await github?.close();
    await server?.close();
    throw error;
  }
}
