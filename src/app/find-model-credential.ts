import { homedir } from 'node:os';
import type { FlotillaConfig } from '../config/index.ts';
import { AGENT_ROLES, type AgentRole } from '../domain/index.ts';
import { findRuntime, RUNTIME_REGISTRY, runtimeNameOf } from '../runtimes/registry.ts';
import type { RuntimeCredentials, RuntimeEnv } from '../runtimes/shared/runtime-descriptor.ts';

export type ModelCredentialCheck =
  | { ok: true; variable: string }
  | {
      ok: false;
      /** What to do, in one sentence per line. */
      advice: string[];
    };

/** The last piece of advice for any runtime without a credential: a dry run needs none. */
const DRY_RUN_ADVICE =
  "or do a dry run without a key: `flotilla init --scripted` (keeps your agent files and other settings), or set those roles to 'scripted' under `runtimes` in flotilla.config.json with a `scriptedScenario`";

/**
 * Whether agents of the runtime whose `credentials` these are can authenticate: one of its variables set and
 * non-empty. Values are never read beyond "non-empty", and never returned.
 */
export function findModelCredential(
  credentials: RuntimeCredentials,
  env: RuntimeEnv,
  home: string = homedir(),
): ModelCredentialCheck {
  const variable = credentials.variables.find((name) => (env[name] ?? '').trim() !== '');
  if (variable !== undefined) return { ok: true, variable };
  return { ok: false, advice: [...credentials.advice({ env, home }), DRY_RUN_ADVICE] };
}

/** One runtime that takes its model credential from Flotilla's environment, as the config uses it. */
export interface ModelCredentialStatus {
  /** The runtime's registry name. */
  runtime: string;
  /** Its name in messages (`Claude`). */
  label: string;
  /** Accounts naming it are configured: each run gets its account's variables (doctor checks those). */
  accounts: boolean;
  /** The roles configured on it that need a credential from the environment: none with accounts. */
  roles: AgentRole[];
  credential: ModelCredentialCheck;
}

/**
 * For each runtime of the registry that declares `credentials` (src/runtimes/registry.ts): the roles that
 * need one and whether the environment holds it — what `flotilla run` checks at start and `flotilla doctor`
 * reports.
 */
export function checkModelCredentials(
  config: Pick<FlotillaConfig, 'runtimes'> & Partial<Pick<FlotillaConfig, 'accounts'>>,
  env: RuntimeEnv,
  home: string = homedir(),
): ModelCredentialStatus[] {
  return RUNTIME_REGISTRY.flatMap(({ name }): ModelCredentialStatus[] => {
    const credentials = findRuntime(name)?.credentials;
    if (credentials === undefined) return [];
    const accounts = config.accounts?.some((account) => account.runtime === name) ?? false;
    const roles = accounts ? [] : AGENT_ROLES.filter((role) => runtimeNameOf(config.runtimes[role]) === name);
    return [
      {
        runtime: name,
        label: credentials.label,
        accounts,
        roles,
        credential: findModelCredential(credentials, env, home),
      },
    ];
  });
}
