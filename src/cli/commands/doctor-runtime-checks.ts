import { checkModelCredentials } from '../../app/find-model-credential.ts';
import type { FlotillaConfig } from '../../config/index.ts';
import { AGENT_ROLES, type AgentRole } from '../../domain/index.ts';
import { findRuntime, RUNTIME_REGISTRY, runtimeNameOf } from '../../runtimes/registry.ts';
import type { RuntimeAgentFiles, RuntimeEnv } from '../../runtimes/shared/runtime-descriptor.ts';
import { messageOf } from '../../shared/message-of.ts';
import { type DoctorCheck, ok } from './doctor-check.ts';

/**
 * The agent files a role's runtime reads (its descriptor's `agentFiles`); a scripted role reads those of
 * the runtime that plays it (`scriptedRuntime`).
 */
function agentFilesOf(config: FlotillaConfig, role: AgentRole): RuntimeAgentFiles | undefined {
  const runtime = findRuntime(runtimeNameOf(config.runtimes[role]));
  return runtime?.scripted === true ? findRuntime(config.scriptedRuntime)?.agentFiles : runtime?.agentFiles;
}

/** Each role's agent files (`.claude/agents/<role>.md` for the Claude SDK), read as a run would. */
export async function checkAgentFiles(repoRoot: string, config: FlotillaConfig): Promise<DoctorCheck> {
  const roles = AGENT_ROLES.flatMap((role) => {
    const files = agentFilesOf(config, role);
    return files === undefined ? [] : [{ role, files }];
  });
  if (roles.length === 0) {
    const readers = RUNTIME_REGISTRY.filter((runtime) =>
      runtime.scripted === true
        ? findRuntime(config.scriptedRuntime)?.agentFiles !== undefined
        : runtime.agentFiles !== undefined,
    ).map((runtime) => runtime.name);
    return ok('agents', `no agent files needed (no role runs on ${readers.join(' or ')})`);
  }
  const problems: string[] = [];
  for (const { role, files } of roles) {
    try {
      await files.check({ repoRoot, role, contextPaths: config.contextPaths });
    } catch (error) {
      problems.push(messageOf(error));
    }
  }
  if (problems.length === 0) {
    return ok('agents', `agent files: ${roles.map(({ role, files }) => files.pathOf(role)).join(', ')}`);
  }
  return {
    name: 'agents',
    status: 'fail',
    message: 'agent files missing or invalid',
    fix: [...problems, '`flotilla init` writes the missing ones (`--force` replaces invalid ones)'],
  };
}

/**
 * One `credentials` line per runtime whose descriptor declares `credentials` (the Claude runtime): its
 * accounts, or the variable found, or what to set for the roles on it.
 */
export function checkCredentials(config: FlotillaConfig, env: RuntimeEnv): DoctorCheck[] {
  const scripted = AGENT_ROLES.filter(
    (role) => findRuntime(runtimeNameOf(config.runtimes[role]))?.scripted === true,
  );
  const scriptedNote = scripted.length > 0 ? `; ${scripted.join(', ')}: scripted, no key needed` : '';
  return checkModelCredentials(config, env).map(({ runtime, label, accounts, roles, credential }) => {
    if (accounts) {
      return ok('credentials', `${runtime} roles use the configured accounts (one line each below)`);
    }
    if (roles.length === 0) {
      return ok(
        'credentials',
        scripted.length === AGENT_ROLES.length
          ? 'no credentials needed (every role is scripted)'
          : `no ${label} credentials needed (no role runs on ${runtime})`,
      );
    }
    if (credential.ok) {
      return ok('credentials', `${roles.join(', ')}: ${credential.variable} is set${scriptedNote}`);
    }
    return {
      name: 'credentials',
      status: 'fail',
      message: `no model credentials for ${roles.join(', ')} (runtime '${runtime}')${scriptedNote}`,
      fix: credential.advice,
    };
  });
}

/**
 * One line per runtime that roles name (`"codex"`, `"gemini"`) and whose descriptor says what ready looks like
 * (`doctorReady`): its own preflight (`checkAvailability`: binary, key), the problems as the fix.
 */
export function checkRuntimesByName(
  repoRoot: string,
  config: FlotillaConfig,
  env: RuntimeEnv,
): DoctorCheck[] {
  return RUNTIME_REGISTRY.flatMap(({ name }): DoctorCheck[] => {
    const runtime = findRuntime(name);
    const roles = AGENT_ROLES.filter((role) => config.runtimes[role] === name);
    if (runtime?.doctorReady === undefined || roles.length === 0) return [];
    const availability = runtime.checkAvailability?.({ settings: name, env, cwd: repoRoot }) ?? {
      available: true,
    };
    if (availability.available) return [ok(name, `${roles.join(', ')}: ${runtime.doctorReady}`)];
    return [
      {
        name,
        status: 'fail',
        message: `runtime '${name}' (${roles.join(', ')}) cannot run`,
        fix: availability.problems,
      },
    ];
  });
}
