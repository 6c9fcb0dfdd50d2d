import { join } from 'node:path';
import { SCRIPTED_RUNTIME } from '../../domain/index.ts';
import type { RuntimeBuildContext, RuntimeDescriptor } from '../shared/runtime-descriptor.ts';
import { claudeCredentials } from './claude-credentials.ts';
import { createClaudeAdapter } from './create-claude-adapter.ts';
import { loadAgentDefinition } from './load-agent-definition.ts';

const NAME = 'claude';

function build(context: RuntimeBuildContext, runtime: string, extraEnv: RuntimeBuildContext['extraEnv']) {
  return createClaudeAdapter({
    repoRoot: context.repoRoot,
    defaultBranch: context.defaultBranch,
    contextPaths: context.contextPaths,
    bashValidatorHook: context.bashValidatorHook,
    ...(context.readOnlyBashValidatorHook !== undefined && {
      readOnlyBashValidatorHook: context.readOnlyBashValidatorHook,
    }),
    logger: context.logger,
    setupCommand: context.setupCommand,
    worktrees: context.worktrees,
    stateDir: context.stateDir,
    models: context.models,
    maxAgentDuration: context.maxAgentDuration,
    logging: context.logging,
    extraEnv,
    readOnlyPaths: context.readOnlyPaths,
    runtime,
    accounts: Object.fromEntries(
      context.accounts.filter((entry) => entry.runtime === runtime).map((entry) => [entry.name, entry.env]),
    ),
    validation: context.validation,
    sandbox: context.sandbox,
    passEnv: context.passEnv,
  });
}

/** The Claude Agent SDK runtime (README.md): `"claude"` in flotilla.config.json. */
export const claudeRuntime: RuntimeDescriptor<typeof NAME> = {
  name: NAME,
  summary: 'the Claude Agent SDK',
  config: { kind: 'name' },
  takesAccounts: true,
  stateDir: NAME,
  // Every agent process (and the tools it runs) carries its per-run config directory.
  orphanMarkerVariables: ['CLAUDE_CONFIG_DIR'],
  // Its model credential comes from Flotilla's environment (or the configured accounts).
  credentials: claudeCredentials,
  // Each role's `.claude/agents/<role>.md`, read by the SDK (and by the scripted roles it plays).
  agentFiles: {
    pathOf: (role) => `.claude/agents/${role}.md`,
    check: async (input) => {
      await loadAgentDefinition(input);
    },
  },
  create: (context) => build(context, NAME, context.extraEnv),
  // The demo's story in the Claude Code tools (Write, Bash), in src/app/demo/.
  demo: { scenarioPath: join(import.meta.dirname, '../../app/demo/demo-scenario.json') },
  // The same adapter on the scripted server's Messages endpoint, with a dummy key.
  createScripted: (context, endpoint) =>
    build(context, SCRIPTED_RUNTIME, {
      ...context.extraEnv,
      ANTHROPIC_BASE_URL: endpoint.url,
      ANTHROPIC_API_KEY: SCRIPTED_RUNTIME,
    }),
};
