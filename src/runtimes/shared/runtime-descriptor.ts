import type { z } from 'zod';
import type { AgentRole } from '../../domain/index.ts';
import type { RuntimeAdapter, RuntimeAvailability } from '../../engine/runtime-contract/index.ts';
import type { BashValidatorHook } from '../../guards/bash-validator/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Sandbox } from '../../sandbox/sandbox-types.ts';
import type { WorktreeManager } from '../../workspace/create-worktree-manager.ts';
import type { ValidationSettings } from './run-validation-round.ts';

/** An environment, as read (absent and empty variables alike). */
export type RuntimeEnv = Readonly<Record<string, string | undefined>>;

/**
 * Everything the composition root (src/app/create-control-plane.ts) hands a runtime's `create`: the
 * configuration it needs, already resolved to paths and hooks, and the parts every runtime shares.
 */
export interface RuntimeBuildContext {
  repoRoot: string;
  defaultBranch: string;
  contextPaths: string[];
  logger: Logger;
  setupCommand: string | null;
  /** The one worktree manager every runtime shares. */
  worktrees: WorktreeManager;
  /** This runtime's own state directory: `<stateDir>/<descriptor.stateDir>` (its runs under `runs/`). */
  stateDir: string;
  models: Partial<Record<AgentRole, string>>;
  maxAgentDuration: number;
  /** `maxRunBytes`: each transcript's cap (config `logging.maxRunBytes`). */
  logging: { agentSessions: boolean; logsDir: string; maxRunBytes: number };
  /** Added to every agent's environment. */
  extraEnv?: Readonly<Record<string, string>>;
  bashValidatorHook: BashValidatorHook;
  /** The bash validator of read-only runs (modes investigate, refine); absent: such runs are refused. */
  readOnlyBashValidatorHook?: BashValidatorHook;
  /** Absolute paths agents may read but never write. */
  readOnlyPaths: readonly string[];
  /** Every configured account: each runtime takes those naming it (their variables are references). */
  accounts: readonly { name: string; runtime: string; env: Readonly<Record<string, string>> }[];
  validation: ValidationSettings;
  sandbox: Sandbox;
  passEnv: readonly string[];
  /**
   * The runs are played by a scripted stand-in (the demo agent CLI): recorded as `scripted`, so their usage
   * is marked made up and never counted with real spend.
   */
  scriptedStandIn: boolean;
}

/** A scripted model server this runtime's agents talk to instead of a model provider (127.0.0.1 only). */
export interface ScriptedModelEndpoint {
  url: string;
}

/**
 * How the demo runs a runtime with every role on it: against the scripted model server playing `scenarioPath`
 * (the demo's story in the runtime's own tools; the runtime's `createScripted`), or, with no model at all,
 * around the scripted demo agent CLI (`agentProgram`: the settings that run that program).
 */
export type RuntimeDemo<Settings> =
  | { scenarioPath: string }
  | { agentProgram(program: readonly string[]): Settings };

/**
 * Where a runtime's agents get their model credential from Flotilla's environment, for `flotilla run`'s
 * start-up check and `flotilla doctor`'s `credentials` line (src/app/find-model-credential.ts).
 */
export interface RuntimeCredentials {
  /** The runtime's name in those messages: `no <label> credentials needed`. */
  label: string;
  /** Variables any one of which, set and non-empty, is a credential; reported in this order. */
  variables: readonly string[];
  /**
   * What to do when none is set, one sentence per line (`home`: the user's home directory, where a saved
   * login the agents will not use may lie). Never reads a value beyond "non-empty".
   */
  advice(input: { env: RuntimeEnv; home: string }): string[];
}

/** The per-role agent files a runtime reads from the repository, which `flotilla doctor` checks. */
export interface RuntimeAgentFiles {
  /** A role's file, relative to the repository root. */
  pathOf(role: AgentRole): string;
  /** Reads it as a run would; rejects with an error naming the file and what is wrong. */
  check(input: { repoRoot: string; role: AgentRole; contextPaths: readonly string[] }): Promise<void>;
}

/** How `runtimes.<role>` names the runtime in flotilla.config.json. */
export type RuntimeConfigForm<Settings> =
  /** By its name alone: `"codex"`. */
  | { kind: 'name' }
  /**
   * As an object `{"runtime": "<name>", …}`, validated by this schema (its errors name the field);
   * `expected` describes it in the message for a value that is neither a name nor an object.
   */
  | { kind: 'object'; schema: z.ZodType<Settings>; expected: string };

/** The settings of the roles (and of the config's named runtimes) that chose one runtime. */
export interface ConfiguredRuntimeSettings<Settings> {
  roles: readonly Settings[];
  named: readonly Settings[];
}

/**
 * One agent runtime, as the rest of Flotilla sees it: everything the config schema, the composition root,
 * the runtime choices, crash recovery and `flotilla doctor` need, so that adding a runtime is its folder plus
 * one line in src/runtimes/registry.ts.
 */
// Methods, not function properties: a descriptor of specific settings is one of `RuntimeDescriptor<unknown>`
// (the registry's list), and each is called only with the settings its own config form validated.
export interface RuntimeDescriptor<Settings = unknown> {
  /** The name `runtimes.<role>` and a `runtime:<name>` label use; what its runs are recorded under. */
  name: string;
  /** One line for `flotilla doctor`, the config README and error messages. */
  summary: string;
  config: RuntimeConfigForm<Settings>;
  /**
   * Its directory under `.flotilla/state/`, or null when it keeps none. One directory per run lives under
   * `<stateDir>/<dir>/runs/`; crash recovery removes those a killed Flotilla left behind.
   */
  stateDir: string | null;
  /**
   * Variables each of its agent processes (and their children) carry, set to a directory under its `runs/`:
   * crash recovery ends the processes whose variable points there (src/app/reap-orphan-processes.ts).
   */
  orphanMarkerVariables: readonly string[];
  /**
   * Whether a role with these settings can run here (binary, key…), asked before `flotilla run` starts and by
   * `flotilla doctor`. Absent: always available (its problems surface per run).
   */
  checkAvailability?(input: { settings: Settings; env: RuntimeEnv; cwd: string }): RuntimeAvailability;
  /** The runtime itself, for roles configured with these settings. */
  create(context: RuntimeBuildContext, settings: Settings): RuntimeAdapter;
  /**
   * How it runs against a scripted model server (dry runs, `flotilla demo`, `scriptedRuntime`): absent when
   * it cannot. Its runs are recorded as `scripted`.
   */
  createScripted?(context: RuntimeBuildContext, endpoint: ScriptedModelEndpoint): RuntimeAdapter;
  /**
   * The names a `runtime:<name>` label may choose it by, each with the settings it is then created with
   * (given what the config chose it with). Absent: its own name, for a runtime named by name.
   */
  labelChoices?(
    configured: ConfiguredRuntimeSettings<Settings>,
  ): readonly { name: string; settings: Settings }[];
  /**
   * The name runs with these settings are recorded under (`cli:aider`), for messages. Absent: `name`.
   * A runtime configured as an object is checked role by role; one named by name once for all its roles.
   */
  runName?(settings: Settings): string;
  /**
   * `flotilla doctor`'s line for the roles configured with it by name: what it says when `checkAvailability`
   * finds nothing missing (`codex binary found, API key set`); otherwise the line fails with the problems.
   * Absent: no line of its own (doctor checks it its own way, or there is nothing to check).
   */
  doctorReady?: string;
  /**
   * Its model credential, when it takes one from Flotilla's environment (not through its own preflight):
   * `flotilla run` refuses to start without it and `flotilla doctor` reports it. Absent: nothing to check.
   */
  credentials?: RuntimeCredentials;
  /**
   * The agent files its roles read (and the scripted roles, when it plays them): `flotilla doctor` checks
   * them. Absent: it reads none.
   */
  agentFiles?: RuntimeAgentFiles;
  /** How `flotilla demo --runtime <name>` plays it; absent: the demo does not offer it. */
  demo?: RuntimeDemo<Settings>;
  /** Whether config `accounts` (credential profiles) may name it. */
  takesAccounts?: boolean;
  /**
   * Whether it is itself the scripted stand-in (its roles run on the `scriptedRuntime` against the configured
   * scenario's server, which then must be set).
   */
  scripted?: boolean;
}
