import { join } from 'node:path';
import { SCRIPTED_RUNTIME } from '../../domain/index.ts';
import type { RuntimeBuildContext, RuntimeDescriptor } from '../shared/runtime-descriptor.ts';
import { checkCodexAvailability } from './check-codex-availability.ts';
import { type CodexRuntimeConfig, createCodexRuntime } from './create-codex-runtime.ts';

const NAME = 'codex';
/** The variable holding codex's dummy key for the scripted model server (never passed to its commands). */
const SCRIPTED_CODEX_KEY = 'FLOTILLA_SCRIPTED_API_KEY';
/**
 * The model scripted codex runs ask for (the server answers as the model asked): one the codex price table
 * knows, so their made-up tokens get a cost like the Claude runtime's scripted runs (marked, never counted with real spend).
 */
const SCRIPTED_CODEX_MODEL = 'gpt-5.1-codex-max';

function build(context: RuntimeBuildContext, scripted?: Partial<CodexRuntimeConfig>) {
  return createCodexRuntime({
    ...scripted,
    repoRoot: context.repoRoot,
    defaultBranch: context.defaultBranch,
    contextPaths: context.contextPaths,
    logger: context.logger,
    setupCommand: context.setupCommand,
    worktrees: context.worktrees,
    stateDir: context.stateDir,
    models: context.models,
    maxAgentDuration: context.maxAgentDuration,
    logging: context.logging,
    ...(context.extraEnv !== undefined && { extraEnv: context.extraEnv }),
    validation: context.validation,
    sandbox: context.sandbox,
    passEnv: context.passEnv,
  });
}

/** The codex binary through the Codex SDK (README.md): `"codex"` in flotilla.config.json. */
export const codexRuntime: RuntimeDescriptor<typeof NAME> = {
  name: NAME,
  summary: 'the codex binary (Codex SDK)',
  config: { kind: 'name' },
  stateDir: NAME,
  // Each run's CODEX_HOME; its sandboxed commands die with it.
  orphanMarkerVariables: ['CODEX_HOME'],
  checkAvailability: ({ env }) => checkCodexAvailability({ env }),
  doctorReady: 'codex binary found, API key set',
  // The demo's story in codex's tools (exec_command), next to the other runtimes' in src/app/demo/.
  demo: { scenarioPath: join(import.meta.dirname, '../../app/demo/demo-scenario-codex.json') },
  create: (context) => build(context),
  // The real codex binary on the scripted server's Responses endpoint, with a dummy key.
  createScripted: (context, endpoint) =>
    build(context, {
      model: SCRIPTED_CODEX_MODEL,
      provider: { id: 'flotilla-scripted', baseUrl: `${endpoint.url}/v1`, envKey: SCRIPTED_CODEX_KEY },
      // A dummy key for the local server: no OpenAI account, nothing leaves 127.0.0.1.
      baseEnv: { ...process.env, [SCRIPTED_CODEX_KEY]: SCRIPTED_RUNTIME },
      runtime: SCRIPTED_RUNTIME,
    }),
};
