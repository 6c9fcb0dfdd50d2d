import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadConfiguredScenario } from '../../app/load-configured-scenario.ts';
import { loadPromptTemplates } from '../../app/load-prompt-templates.ts';
import { type FlotillaConfig, loadConfig } from '../../config/index.ts';
import { AGENT_ROLES } from '../../domain/index.ts';
import { findProvider, providerSettingsOf } from '../../providers/registry.ts';
import { checkCliAvailability } from '../../runtimes/cli/check-cli-availability.ts';
import { resolveCliPreset } from '../../runtimes/cli/cli-presets.ts';
import { checkSandboxAvailability, probeSandbox } from '../../sandbox/check-sandbox-availability.ts';
import { MACOS_SANDBOX_STATUS } from '../../sandbox/sandbox-types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { findRepoRoot } from '../support/find-repo-root.ts';
import { type DoctorCheck, ok } from './doctor-check.ts';
import { checkAgentFiles, checkCredentials, checkRuntimesByName } from './doctor-runtime-checks.ts';

const execFileAsync = promisify(execFile);

export type { DoctorCheck, DoctorStatus } from './doctor-check.ts';

export interface DoctorInput {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Default `process.platform` (tests give another: what doctor says on macOS). */
  platform?: NodeJS.Platform;
}

/**
 * Everything `flotilla run` needs, checked in the order a new user meets it. Later checks that depend on an
 * earlier one (a config needs a repository) are skipped when it failed. Never throws for a user problem.
 */
export async function runDoctorChecks(input: DoctorInput): Promise<DoctorCheck[]> {
  const repoRoot = await findRepoRoot(input.cwd);
  if (repoRoot === null) {
    return [
      {
        name: 'git',
        status: 'fail',
        message: `${input.cwd} is not inside a git repository`,
        fix: ['run flotilla in your project, or `git init` first'],
      },
    ];
  }
  const checks: DoctorCheck[] = [ok('git', `git repository at ${repoRoot}`)];

  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) {
    checks.push({
      name: 'config',
      status: 'fail',
      message: `${loaded.path} is invalid`,
      fix: [...loaded.errors, 'every setting and its default: src/config/README.md in Flotilla'],
    });
    return checks;
  }
  const { config } = loaded;
  checks.push(
    loaded.found
      ? ok('config', `flotilla.config.json is valid (default branch ${config.defaultBranch})`)
      : {
          name: 'config',
          status: 'warn',
          message: 'no flotilla.config.json: every setting is its default',
          fix: ['`flotilla init` writes one, with the agent files'],
        },
  );
  checks.push(await checkAgentFiles(repoRoot, config));
  checks.push(await checkPromptTemplates(repoRoot));
  // The configured provider's own lines (src/providers/registry.ts): the specs, or the token, access, labels.
  const provider = findProvider(config.provider);
  const providerInput = {
    repoRoot,
    defaultBranch: config.defaultBranch,
    specsDir: config.specsDir,
    checks: config.checks,
    env: input.env,
    settings: provider === undefined ? undefined : providerSettingsOf(provider, config),
  };
  if (provider !== undefined) checks.push(...(await provider.checkTracker(providerInput)));
  checks.push(checkSandbox(config, input.platform ?? process.platform));
  if (config.cluster !== undefined) checks.push(await checkCluster(config.cluster.postgres, input.env));
  checks.push(...checkCredentials(config, input.env));
  checks.push(...checkAccounts(config, input.env));
  checks.push(...checkRuntimesByName(repoRoot, config, input.env));
  checks.push(...(await checkCliPrograms(repoRoot, config, input.env)));
  const scenario = await checkScenario(repoRoot, config);
  if (scenario !== null) checks.push(scenario);
  if (provider !== undefined) checks.push(await provider.checkChecks(providerInput));
  return checks;
}

/**
 * Cluster mode (`cluster.postgres`, src/cluster/README.md): the variable it names is set to a PostgreSQL URL
 * and the server answers. Never prints the URL (it may hold a password).
 */
async function checkCluster(
  reference: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DoctorCheck> {
  const { resolveClusterDatabaseUrl } = await import('../../cluster/resolve-cluster-database-url.ts');
  const resolved = resolveClusterDatabaseUrl(reference, env);
  if (!resolved.ok)
    return {
      name: 'cluster',
      status: 'fail',
      message: resolved.problem,
      fix: [
        `export ${resolved.variable}=postgres://user:password@host:5432/database (never in the config file)`,
      ],
    };
  const { probeClusterDatabase } = await import('../../cluster/probe-cluster-database.ts');
  const problem = await probeClusterDatabase(resolved.url);
  if (problem !== null)
    return {
      name: 'cluster',
      status: 'fail',
      message: `PostgreSQL at $${resolved.variable} does not answer: ${problem}`,
      fix: ['start the server, or fix the URL; every controller and worker machine must reach it'],
    };
  return ok('cluster', `cluster mode: PostgreSQL at $${resolved.variable} answers`);
}

/** `.flotilla/prompts/<role>.md`, parsed as `flotilla run` would at start (docs/prompt-templates.md). */
async function checkPromptTemplates(repoRoot: string): Promise<DoctorCheck> {
  const loaded = await loadPromptTemplates(repoRoot);
  if (!loaded.ok)
    return {
      name: 'prompts',
      status: 'fail',
      message: 'a prompt template is invalid',
      fix: [...loaded.errors, 'the syntax and every variable: docs/prompt-templates.md in Flotilla'],
    };
  return ok(
    'prompts',
    loaded.paths.length === 0
      ? 'no prompt templates: every role gets the built-in prompt'
      : `prompt templates: ${loaded.paths.join(', ')}`,
  );
}

/** One line per configured account: the variables it names, and whether flotilla's environment sets them. */
function checkAccounts(
  config: FlotillaConfig,
  env: Readonly<Record<string, string | undefined>>,
): DoctorCheck[] {
  return config.accounts.map((account) => {
    const sources = Object.entries(account.env).map(([target, reference]) => ({
      target,
      source: reference.replace(/^\$\{?|\}$/g, ''),
    }));
    const missing = sources.filter(({ source }) => !env[source]);
    const names = sources.map(({ target, source }) => `${target} ← $${source}`).join(', ');
    const name = `account-${account.name}`;
    if (missing.length === 0) return ok(name, `account ${account.name} (${account.runtime}): ${names}: set`);
    return {
      name,
      status: 'fail',
      message: `account ${account.name} (${account.runtime}): ${missing.map(({ source }) => `$${source}`).join(', ')} not set`,
      fix: missing.map(
        ({ source }) => `export ${source}=… in the environment of flotilla run (never in the config file)`,
      ),
    };
  });
}

/**
 * One line per role on the CLI runtime: is its program (the config's `program`, else the preset's) on
 * PATH, as the runtime will spawn it? A missing program fails every dispatch of that role.
 */
async function checkCliPrograms(
  repoRoot: string,
  config: FlotillaConfig,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const role of AGENT_ROLES) {
    const settings = config.runtimes[role];
    if (typeof settings === 'string') continue;
    const name = `cli-${role}`;
    let program: string;
    try {
      program = settings.program?.[0] ?? resolveCliPreset(settings.preset, settings.custom).start[0] ?? '';
    } catch (error) {
      checks.push({
        name,
        status: 'fail',
        message: `${role}: CLI preset ${settings.preset} is invalid`,
        fix: [messageOf(error), 'the preset format: src/runtimes/cli/README.md in Flotilla'],
      });
      continue;
    }
    const found = await findOnPath(repoRoot, program, env);
    // The rest of the runtime's own preflight (check-cli-availability.ts): a key, for presets that need one.
    const missingKey =
      found === null
        ? []
        : (() => {
            const availability = checkCliAvailability({
              presetName: settings.preset,
              preset: resolveCliPreset(settings.preset, settings.custom),
              program: [found],
              env,
              cwd: repoRoot,
            });
            return availability.available ? [] : availability.problems;
          })();
    if (missingKey.length > 0) {
      checks.push({
        name,
        status: 'fail',
        message: `${role}: CLI preset ${settings.preset}: ${program} is on PATH, but it cannot run`,
        fix: missingKey,
      });
      continue;
    }
    checks.push(
      found !== null
        ? ok(name, `${role}: CLI preset ${settings.preset}: ${program} is on PATH (${found})`)
        : {
            name,
            status: 'fail',
            message: `${role}: CLI preset ${settings.preset}: ${program} is not on PATH`,
            fix: [`install ${program}, or set runtimes.${role}.program in flotilla.config.json to its path`],
          },
    );
  }
  return checks;
}

/**
 * Where `command -v` finds `program` (executables on PATH, builtins, paths), or null. `env` (its PATH) is
 * the one the program would run with; unset = this process's.
 */
async function findOnPath(
  cwd: string,
  program: string,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  if (program === '') return null;
  try {
    const { stdout } = await execFileAsync('/bin/sh', ['-c', 'command -v "$1"', 'sh', program], {
      cwd,
      ...(env !== undefined && { env }),
    });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

async function checkScenario(repoRoot: string, config: FlotillaConfig): Promise<DoctorCheck | null> {
  const scenario = await loadConfiguredScenario(repoRoot, config);
  switch (scenario.kind) {
    case 'none':
      return null;
    case 'ok':
      return ok(
        'scenario',
        `scripted scenario ${config.scriptedScenario}: ${scenario.scenario.routes.length} route(s) (${scenario.scenario.routes.map((route) => route.name).join(', ')})`,
      );
    case 'invalid':
      return {
        name: 'scenario',
        status: 'fail',
        message: `scripted scenario ${config.scriptedScenario} is invalid`,
        fix: [...scenario.errors, 'format: src/model-server/README.md in Flotilla'],
      };
  }
}

/** The OS sandbox every agent runs in: bubblewrap present and working, or turned off (a loud warning). */
function checkSandbox(config: FlotillaConfig, platform: NodeJS.Platform): DoctorCheck {
  if (config.sandbox.mode === 'off') {
    return {
      name: 'sandbox',
      status: 'warn',
      message:
        'the OS sandbox is OFF ("sandbox": "off"): agents can read and write everything your user can — secrets, other worktrees, .git',
      fix:
        platform === 'darwin'
          ? [MACOS_SANDBOX_STATUS, 'for a sandbox, run Flotilla on Linux (a VM or container with bubblewrap)']
          : ['remove "sandbox": "off" from flotilla.config.json (Linux: apt-get install bubblewrap)'],
    };
  }
  // Not Linux: no bubblewrap to try (macOS: MACOS_SANDBOX_STATUS says what applies).
  if (platform !== 'linux') {
    const probe = probeSandbox({ platform });
    if (!probe.available) {
      return {
        name: 'sandbox',
        status: 'fail',
        message: `the OS sandbox cannot start here (${platform === 'darwin' ? 'macOS' : platform})`,
        fix: probe.problems,
      };
    }
  }
  const probe = checkSandboxAvailability();
  if (!probe.available) {
    return {
      name: 'sandbox',
      status: 'fail',
      message: 'the OS sandbox cannot start here',
      fix: probe.problems,
    };
  }
  return {
    name: 'sandbox',
    status: 'ok',
    message: `agents run in the OS sandbox (bubblewrap at ${probe.bwrapPath}): worktree writable, home and Flotilla's state hidden, network limited to the model API`,
    fix: [],
  };
}
