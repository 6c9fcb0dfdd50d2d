import type { ListenAddress } from '../../api/parse-listen-address.ts';
import { checkModelCredentials } from '../../app/find-model-credential.ts';
import { loadConfiguredScenario } from '../../app/load-configured-scenario.ts';
import type { FlotillaConfig } from '../../config/index.ts';
import {
  SANDBOX_OFF_NOTICE,
  SANDBOX_UNAVAILABLE,
  SANDBOX_UNAVAILABLE_MACOS,
} from '../../sandbox/sandbox-types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { findRepoRoot } from './find-repo-root.ts';

/** What `flotilla run` starts with once every check decidable before starting has passed. */
export interface RunPreconditions {
  repoRoot: string;
  config: FlotillaConfig;
  /** `--serve`'s address, or null without `--serve`. */
  serveAddress: ListenAddress | null;
  /** `FLOTILLA_SERVE_TOKEN`, when set and not empty. */
  serveToken: string | undefined;
}

const err = (line: string) => process.stderr.write(`${line}\n`);

/** Prints the lines on stderr and sets exit code 2 (a validation error); always null, for `return fail(…)`. */
function fail(...lines: string[]): null {
  for (const line of lines) err(line);
  process.exitCode = 2;
  return null;
}

/**
 * Everything `flotilla run` can refuse before anything starts (exit 2, the reason on stderr): not in a git
 * repository, a bad `--serve` address (or a non-loopback one without a token), an invalid config or scripted
 * scenario, roles without model credentials, no OS sandbox. Null when it refused.
 */
export async function checkRunPreconditions(
  serve: boolean | string | undefined,
): Promise<RunPreconditions | null> {
  const repoRoot = await findRepoRoot(process.cwd());
  if (!repoRoot) {
    return fail('flotilla run: not inside a git repository (run it in your project, or `git init` first)');
  }
  // `--serve`: a bad address, or a non-loopback one without a token, stops here before anything starts.
  const serveToken = process.env.FLOTILLA_SERVE_TOKEN || undefined;
  const serveAddress = await parseServeOption(serve, serveToken);
  if (serveAddress === undefined) return null;
  // Loaded here, not at start-up: the config schema (zod) and pino cost every other command ~0.1 s.
  const { loadConfig } = await import('../../config/load-config.ts');
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) {
    return fail(
      ...loaded.errors,
      'flotilla run: fix flotilla.config.json (see `flotilla init` for a starting point)',
    );
  }
  const config = loaded.config;
  if (!(await checkAgentsCanStart(repoRoot, config))) return null;
  return { repoRoot, config, serveAddress, serveToken };
}

/** `--serve [addr]`: its address, null without it, undefined when it was refused (exit 2). */
async function parseServeOption(
  serve: boolean | string | undefined,
  serveToken: string | undefined,
): Promise<ListenAddress | null | undefined> {
  if (serve === undefined || serve === false) return null;
  const { parseListenAddress, DEFAULT_LISTEN_ADDRESS } = await import('../../api/parse-listen-address.ts');
  let serveAddress: ListenAddress;
  try {
    serveAddress = parseListenAddress(serve === true ? DEFAULT_LISTEN_ADDRESS : serve);
  } catch (error) {
    fail(`flotilla run: ${messageOf(error)}`);
    return undefined;
  }
  if (!serveAddress.loopback && serveToken === undefined) {
    fail(
      `flotilla run: refusing to serve on ${serveAddress.host}: a non-loopback address needs FLOTILLA_SERVE_TOKEN set (clients send Authorization: Bearer <token>)`,
    );
    return undefined;
  }
  return serveAddress;
}

/**
 * Problems decidable from the config and the environment stop here (exit 2), before any agent is started: an
 * invalid scenario, roles that would each fail with the CLI's "Not logged in", or no OS sandbox.
 */
async function checkAgentsCanStart(repoRoot: string, config: FlotillaConfig): Promise<boolean> {
  const scenario = await loadConfiguredScenario(repoRoot, config);
  if (scenario.kind === 'invalid') {
    fail(
      ...scenario.errors,
      'flotilla run: fix the scripted scenario (format: src/model-server/README.md in Flotilla)',
    );
    return false;
  }
  // The runtimes that take their model credential from the environment (their descriptors' `credentials`).
  const missing = checkModelCredentials(config, process.env).filter(
    (status) => status.roles.length > 0 && !status.credential.ok,
  );
  if (missing.length > 0) {
    fail(
      ...missing.flatMap(({ runtime, roles, credential }) => [
        `flotilla run: no model credentials for ${roles.join(', ')} (runtime '${runtime}'); agents would fail with "Not logged in"`,
        ...(credential.ok ? [] : credential.advice).map((line) => `  - ${line}`),
      ]),
    );
    return false;
  }
  return checkSandbox(config);
}

/** Every agent runs in the OS sandbox: refused (exit 2) when it cannot start, unless turned off. */
async function checkSandbox(config: FlotillaConfig): Promise<boolean> {
  if (config.sandbox.mode !== 'on') {
    err(`flotilla run: WARNING ${SANDBOX_OFF_NOTICE}`);
    return true;
  }
  const { checkSandboxAvailability } = await import('../../sandbox/check-sandbox-availability.ts');
  const probe = checkSandboxAvailability();
  if (probe.available) return true;
  fail(
    `flotilla run: ${process.platform === 'darwin' ? SANDBOX_UNAVAILABLE_MACOS : SANDBOX_UNAVAILABLE}`,
    ...probe.problems.map((line) => `  - ${line}`),
  );
  return false;
}
