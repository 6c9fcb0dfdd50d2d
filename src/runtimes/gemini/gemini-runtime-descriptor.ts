import { join } from 'node:path';
import { SCRIPTED_RUNTIME } from '../../domain/index.ts';
import type { RuntimeBuildContext, RuntimeDescriptor } from '../shared/runtime-descriptor.ts';
import { GEMINI_BASE_URL_VARIABLE } from './build-gemini-env.ts';
import { checkGeminiAvailability } from './check-gemini-availability.ts';
import { createGeminiRuntime, type GeminiRuntimeConfig } from './create-gemini-runtime.ts';

const NAME = 'gemini';
/**
 * The model scripted gemini runs ask for (the server answers as the model asked): one the price table knows,
 * so their made-up tokens get a cost like the other runtimes' scripted runs (marked, never summed).
 */
const SCRIPTED_GEMINI_MODEL = 'gemini-2.5-flash';

function build(context: RuntimeBuildContext, scripted?: Partial<GeminiRuntimeConfig>) {
  return createGeminiRuntime({
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
    ...scripted,
  });
}

/** Google's gemini CLI (README.md): `"gemini"` in flotilla.config.json. */
export const geminiRuntime: RuntimeDescriptor<typeof NAME> = {
  name: NAME,
  summary: "Google's gemini CLI (@google/gemini-cli)",
  config: { kind: 'name' },
  stateDir: NAME,
  // Each run's own home: gemini and every command it runs carry it.
  orphanMarkerVariables: ['GEMINI_CLI_HOME'],
  checkAvailability: ({ env }) => checkGeminiAvailability({ env }),
  doctorReady: 'gemini-cli found, API key set',
  // The demo's story in gemini's tools (write_file, run_shell_command).
  demo: { scenarioPath: join(import.meta.dirname, 'demo-scenario.json') },
  create: (context) => build(context),
  // The real gemini-cli on the scripted server's Gemini endpoint, with a dummy key.
  createScripted: (context, endpoint) =>
    build(context, {
      model: SCRIPTED_GEMINI_MODEL,
      models: {},
      // A dummy key for the local server: no Google account, nothing leaves 127.0.0.1.
      extraEnv: {
        ...context.extraEnv,
        [GEMINI_BASE_URL_VARIABLE]: endpoint.url,
        GEMINI_API_KEY: SCRIPTED_RUNTIME,
      },
      runtime: SCRIPTED_RUNTIME,
    }),
};
