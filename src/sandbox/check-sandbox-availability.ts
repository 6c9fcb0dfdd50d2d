import { spawnSync } from 'node:child_process';
import { createCachedCheck } from '../shared/create-cached-check.ts';
import { NAMESPACE_ARGS } from './build-bwrap-args.ts';
import { findOnPath } from './find-on-path.ts';
import { MACOS_SANDBOX_STATUS, type SandboxAvailability } from './sandbox-types.ts';

/** The availability answer, with the bwrap binary that gave it. */
export interface SandboxProbe extends SandboxAvailability {
  /** The bwrap binary that started the trial sandbox (set when available). */
  bwrapPath?: string;
}

export interface ProbeSandboxOptions {
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Where bwrap is looked for. Default `process.env.PATH`. */
  pathEnv?: string;
}

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)';

/**
 * Whether a sandbox can start here: bwrap on PATH, and a trial sandbox with the namespaces `wrap` uses
 * actually runs `true` (user namespaces can be disabled, e.g. in containers). Any problem says what to do.
 */
export function probeSandbox(options: ProbeSandboxOptions = {}): SandboxProbe {
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin') return { available: false, problems: [MACOS_SANDBOX_STATUS] };
  if (platform !== 'linux') {
    return {
      available: false,
      problems: [
        `the OS sandbox needs Linux with bubblewrap; ${platform} is not supported — set "sandbox": "off" in flotilla.config.json to run agents unsandboxed (not recommended)`,
      ],
    };
  }
  const bwrapPath = findOnPath('bwrap', options.pathEnv ?? process.env.PATH ?? '');
  if (bwrapPath === undefined) {
    return { available: false, problems: [`bubblewrap (bwrap) is not on PATH: ${INSTALL_HINT}`] };
  }
  const trial = spawnSync(
    bwrapPath,
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      // The same namespaces every sandbox asks for: a kernel that refuses one fails here, not at a run.
      ...NAMESPACE_ARGS,
      '--',
      'true',
    ],
    { env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (trial.error !== undefined || trial.status !== 0) {
    const detail = trial.error?.message ?? (trial.stderr.trim() || `exit code ${trial.status}`);
    return {
      available: false,
      problems: [
        `${bwrapPath} cannot start a sandbox here (${detail}): user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or run outside a restricted container), or ${INSTALL_HINT}`,
      ],
    };
  }
  return { available: true, problems: [], bwrapPath };
}

/** `probeSandbox()` with its answer reused for 30 s: many runs dispatched at once start one trial sandbox. */
export const checkSandboxAvailability: () => SandboxProbe = createCachedCheck(() => probeSandbox());
