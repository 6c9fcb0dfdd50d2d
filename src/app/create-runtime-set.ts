import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FlotillaConfig } from '../config/index.ts';
import type { AgentRole } from '../domain/index.ts';
import type { RuntimeAdapter, RuntimeAdapters } from '../engine/runtime-contract/index.ts';
import {
  buildBashValidatorRules,
  createBashValidatorHook,
  toReadOnlyBashValidatorRules,
} from '../guards/bash-validator/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createModelServer } from '../model-server/create-model-server.ts';
import { findRuntime, RUNTIME_REGISTRY, type RuntimeSettings, runtimeNameOf } from '../runtimes/registry.ts';
import type { RuntimeBuildContext, RuntimeDescriptor } from '../runtimes/shared/runtime-descriptor.ts';
import { checkSandboxAvailability } from '../sandbox/check-sandbox-availability.ts';
import { createSandbox } from '../sandbox/create-sandbox.ts';
import {
  SANDBOX_OFF_NOTICE,
  SANDBOX_UNAVAILABLE,
  SANDBOX_UNAVAILABLE_MACOS,
} from '../sandbox/sandbox-types.ts';
import type { FlotillaPaths } from '../shared/resolve-flotilla-paths.ts';
import type { WorktreeManager } from '../workspace/worktree-manager-types.ts';
import { buildRuntimeChoices } from './build-runtime-choices.ts';
import { findUnavailableRuntimes } from './find-unavailable-runtimes.ts';
import { loadConfiguredScenario } from './load-configured-scenario.ts';

/** Flotilla's package root (from `src/app/` or `dist/app/`). */
const FLOTILLA_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RuntimeSetOptions {
  repoRoot: string;
  config: FlotillaConfig;
  logger: Logger;
  paths: FlotillaPaths;
  /** Added to every agent's environment. */
  extraEnv?: Readonly<Record<string, string>>;
  /** A scripted model server already running (the demo's): every role runs against it. */
  scriptedModelServerUrl?: string;
  /** Which runtime plays the scripted roles (`claude` or `codex`). */
  scriptedRuntime?: string;
  /** The CLI roles are played by a scripted stand-in: their runs are recorded as `scripted`. */
  scriptedCli?: boolean;
  /**
   * No agent runs in this process: a cluster's controller, whose runs go to the workers (src/cluster/). The
   * sandbox and the runtimes' binaries and keys are the workers' to have; each worker's slot checks them.
   */
  agentsRunElsewhere?: boolean;
}

export interface RuntimeSet {
  /** Whether agents run in the OS sandbox. */
  sandboxMode: 'on' | 'off';
  /** The runtime of each role and those labels may choose, over `worktrees` (the repository's manager). */
  createAdapters(worktrees: WorktreeManager): RuntimeAdapters;
  /** Closes the scenario's scripted model server, if one was started. */
  close(): Promise<void>;
}

/**
 * The runtimes a process runs agents with, as the configuration says — `flotilla run` on one machine, and
 * each `flotilla worker` of a cluster (src/cluster/) in its own clone. Refuses to start, clearly, what could
 * only fail each run mid-way: a bad scenario, no OS sandbox, a runtime without its binary or key.
 */
export async function createRuntimeSet(options: RuntimeSetOptions): Promise<RuntimeSet> {
  const { repoRoot, config, logger, paths } = options;
  // Roles whose runtime is `scripted` run the same Claude adapter against a scripted model server.
  const configured = await loadConfiguredScenario(repoRoot, config);
  if (configured.kind === 'invalid') throw new Error(configured.errors.join('\n'));
  const scriptedServer = configured.kind === 'ok' ? await createModelServer(configured.scenario) : null;

  // Every agent runs in the OS sandbox: without it nothing starts, unless the user turned it off.
  const sandbox = createSandbox(
    // Flotilla's own install stays readable (its agents' binaries run from it; it holds no secret), also when
    // it lies under a home directory the sandbox hides.
    { ...config.sandbox, allowRead: [...config.sandbox.allowRead, FLOTILLA_ROOT] },
    {
      onNetworkRefused: (target) => logger.warn('the sandbox refused a connection', { target }),
    },
  );
  if (options.agentsRunElsewhere === true) {
    logger.info('cluster controller: agents run on the workers, which check the sandbox and runtimes');
  } else if (config.sandbox.mode === 'on') {
    const probe = checkSandboxAvailability();
    if (!probe.available) {
      await scriptedServer?.close();
      const headline = process.platform === 'darwin' ? SANDBOX_UNAVAILABLE_MACOS : SANDBOX_UNAVAILABLE;
      throw new Error(`${headline}: ${probe.problems.join('; ')}`);
    }
  } else {
    logger.warn(SANDBOX_OFF_NOTICE);
  }

  // Each runtime's preflight (its descriptor's `checkAvailability`), refused clearly here rather than failing
  // each run mid-way (no binary, no key). The demo's scripted server answers every role: nothing to check.
  const unavailable =
    options.scriptedModelServerUrl === undefined && options.agentsRunElsewhere !== true
      ? findUnavailableRuntimes(config, { ...process.env, ...options.extraEnv }, repoRoot)
      : [];
  if (unavailable.length > 0) {
    await scriptedServer?.close();
    throw new Error(unavailable.join('\n'));
  }

  return {
    sandboxMode: config.sandbox.mode,
    createAdapters(worktrees) {
      /** What a runtime's `create` is given (src/runtimes/shared/runtime-descriptor.ts). */
      const contextFor = (descriptor: RuntimeDescriptor<RuntimeSettings>): RuntimeBuildContext => ({
        repoRoot,
        defaultBranch: config.defaultBranch,
        contextPaths: config.contextPaths,
        logger,
        setupCommand: config.worktree.setupCommand,
        worktrees,
        // Its own runs directory; orphan reaping after a crash looks there too (reap-orphan-processes.ts).
        stateDir: join(paths.stateDir, descriptor.stateDir ?? descriptor.name),
        models: Object.fromEntries(
          // A per-complexity implementor map is the engine's to apply (build-run-mode-options.ts), per run.
          Object.entries(config.models).filter(
            (entry): entry is [AgentRole, string] => typeof entry[1] === 'string',
          ),
        ),
        maxAgentDuration: config.maxAgentDuration,
        logging: {
          agentSessions: config.logging.agentSessions,
          logsDir: paths.sessionsDir,
          maxRunBytes: config.logging.maxRunBytes,
        },
        ...(options.extraEnv !== undefined && { extraEnv: options.extraEnv }),
        bashValidatorHook: createBashValidatorHook(buildBashValidatorRules(config.bashValidator)),
        readOnlyBashValidatorHook: createBashValidatorHook(
          toReadOnlyBashValidatorRules(buildBashValidatorRules(config.bashValidator)),
        ),
        readOnlyPaths: config.pathGuard.readOnlyPaths.map((path) => resolve(repoRoot, path)),
        accounts: config.accounts,
        validation: {
          commands: config.validation.commands,
          maxRounds: config.validation.maxRounds,
          timeoutMs: config.validation.timeout * 1000,
        },
        sandbox,
        passEnv: config.sandbox.passEnv,
        scriptedStandIn: options.scriptedCli === true,
      });

      const descriptorOf = (name: string): RuntimeDescriptor<RuntimeSettings> => {
        const descriptor = findRuntime(name);
        // The config schema accepts only the registry's names.
        if (descriptor === undefined) throw new Error(`flotilla.config.json: no runtime '${name}'`);
        return descriptor;
      };
      // The runtime that plays the scripted roles against a scripted model server (`scriptedRuntime`).
      const player = descriptorOf(options.scriptedRuntime ?? config.scriptedRuntime);
      const scriptedUrl = options.scriptedModelServerUrl ?? scriptedServer?.url;
      const playScripted = (url: string) => {
        if (player.createScripted === undefined)
          throw new Error(`flotilla.config.json: scriptedRuntime: '${player.name}' cannot run scripted`);
        return player.createScripted(contextFor(player), { url });
      };
      // One runtime per name, shared by the roles and labels that name it (created on first use).
      const byName = new Map<string, RuntimeAdapter | null>();
      const named = (name: string): RuntimeAdapter | null => {
        if (!byName.has(name)) {
          const descriptor = descriptorOf(name);
          byName.set(
            name,
            descriptor.scripted !== true
              ? descriptor.create(contextFor(descriptor), name)
              : scriptedUrl === undefined
                ? null
                : playScripted(scriptedUrl),
          );
        }
        return byName.get(name) ?? null;
      };
      const defaultRuntime = (): RuntimeAdapter => named(RUNTIME_REGISTRY[0].name) as RuntimeAdapter;
      // The demo's scripted server answers every role, and no label chooses another runtime there.
      if (options.scriptedModelServerUrl !== undefined) {
        const scripted = playScripted(options.scriptedModelServerUrl);
        return { planner: scripted, implementor: scripted, reviewer: scripted };
      }
      // A runtime configured as an object: its own adapter each time, a bad setting named where it is.
      const build = (settings: RuntimeSettings, where: string): RuntimeAdapter => {
        if (typeof settings === 'string') return named(settings) ?? defaultRuntime();
        const descriptor = descriptorOf(runtimeNameOf(settings));
        try {
          return descriptor.create(contextFor(descriptor), settings);
        } catch (error) {
          throw new Error(
            `flotilla.config.json: ${where}: ${error instanceof Error ? error.message : error}`,
          );
        }
      };
      const pick = (role: AgentRole): RuntimeAdapter => build(config.runtimes[role], `runtimes.${role}`);
      const roles = {
        planner: pick('planner'),
        implementor: pick('implementor'),
        reviewer: pick('reviewer'),
      };
      // What a work item's `runtime:<name>` label may choose (build-runtime-choices.ts).
      const choices = buildRuntimeChoices(config, {
        build: (runtime, settings) =>
          typeof settings === 'string'
            ? named(settings)
            : build(settings, `runtime:${findRuntime(runtime)?.runName?.(settings) ?? runtime}`),
      });
      return { ...roles, choices };
    },
    async close() {
      await scriptedServer?.close();
    },
  };
}
