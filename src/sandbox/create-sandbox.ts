import { randomUUID } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { buildBwrapArgs } from './build-bwrap-args.ts';
import { buildForwarderCommand } from './build-forwarder-command.ts';
import { buildSandboxEnv, SANDBOX_HOME } from './build-sandbox-env.ts';
import { checkSandboxAvailability, type SandboxProbe } from './check-sandbox-availability.ts';
import { createNetworkBridge, type NetworkBridge } from './create-network-bridge.ts';
import { endStraySandboxes } from './end-stray-sandboxes.ts';
import { findOnPath } from './find-on-path.ts';
import { isWithin } from './is-within.ts';
import { parseNetworkTargets } from './parse-network-targets.ts';
import { planSandboxLayout } from './plan-sandbox-layout.ts';
import { prepareSandboxGitDir, type SandboxGitDir } from './prepare-sandbox-git-dir.ts';
import type { Sandbox, SandboxedCommand, SandboxRequest, SandboxSettings } from './sandbox-types.ts';

export interface SandboxDeps {
  /** Default: `checkSandboxAvailability` (bwrap on PATH and a trial sandbox, cached for 30 s). */
  checkAvailability?: () => SandboxProbe;
  /** Flotilla's home directory, hidden whole in the sandbox. Default `os.homedir()`. */
  homeDir?: string;
  /** Where the network bridge's sockets are created. Default `os.tmpdir()`. */
  tmpDir?: string;
  /** The node binary that runs the in-sandbox port forwarder without perl. Default `process.execPath`. */
  nodePath?: string;
  /**
   * The perl that runs the port forwarder, so the command starts without waiting for node (see
   * build-forwarder-command.ts). Default: `perl` on PATH; `null`: the node forwarder (the command waits).
   */
  perlPath?: string | null | undefined;
  /** Told each proxy request refused (`host:port`) of every process, for Flotilla's log. */
  onNetworkRefused?: (target: string) => void;
}

/**
 * The sandbox every agent process runs in (see README.md): `wrap` turns a command into a bubblewrap
 * invocation started with exactly the request's environment. It rejects, saying why, whenever the sandbox
 * cannot be set up; it never runs a command unsandboxed unless `settings.mode` is 'off'.
 */
export function createSandbox(settings: SandboxSettings, deps: SandboxDeps = {}): Sandbox {
  const checkAvailability = deps.checkAvailability ?? checkSandboxAvailability;
  const homeDir = deps.homeDir ?? homedir();
  const tmpDir = deps.tmpDir ?? tmpdir();
  const nodePath = deps.nodePath ?? process.execPath;
  const perlPath =
    deps.perlPath === undefined ? findOnPath('perl', process.env.PATH ?? '') : (deps.perlPath ?? undefined);
  const forwarderPrograms = [perlPath ?? nodePath];

  const wrapOn = async (
    request: SandboxRequest,
    file: string,
    args: readonly string[],
  ): Promise<SandboxedCommand> => {
    const probe = checkAvailability();
    if (!probe.available || probe.bwrapPath === undefined) {
      throw new Error(`sandbox: cannot start a sandbox: ${probe.problems.join('; ') || 'bwrap not found'}`);
    }
    const targets = parseNetworkTargets([
      ...request.network.map((value) => ({ value, source: 'sandbox request network' })),
      ...(request.network.length > 0 || settings.networkAllow.length > 0
        ? settings.networkAllow.map((value) => ({ value, source: 'sandbox.network.allow' }))
        : []),
    ]);
    let git: SandboxGitDir | undefined;
    if (request.gitWorktree !== undefined) {
      const { worktree, gitStateDir } = request.gitWorktree;
      if (isWithin(resolve(worktree), resolve(gitStateDir))) {
        throw new Error(
          `sandbox: gitWorktree.gitStateDir ${gitStateDir} is inside the worktree; give a run directory`,
        );
      }
      git = await prepareSandboxGitDir(worktree, gitStateDir);
    }
    const forwarding = targets.loopback.length > 0 || targets.proxied.length > 0;
    const bridge: NetworkBridge | undefined = forwarding
      ? await createNetworkBridge(targets, {
          tmpDir,
          onRefused: (target) => {
            deps.onNetworkRefused?.(target);
            request.onNetworkRefused?.(target);
          },
        })
      : undefined;
    try {
      const { env, createHome } = buildSandboxEnv(request.env, {
        writable: request.writable,
        ...(bridge?.proxyPort !== undefined && { proxyPort: bridge.proxyPort }),
      });
      const command =
        bridge === undefined
          ? [file, ...args]
          : buildForwarderCommand(
              { nodePath, ...(perlPath !== undefined && { perlPath }) },
              bridge.ports,
              file,
              args,
            );
      const layout = planSandboxLayout({
        request,
        settings,
        homeDir,
        command,
        extraPrograms: bridge === undefined ? [file] : [file, ...forwarderPrograms],
        ...(git !== undefined && { git }),
        ...(bridge !== undefined && { socketDir: bridge.socketDir }),
        ...(createHome && { createDir: SANDBOX_HOME }),
      });
      const id = randomUUID();
      return {
        file: probe.bwrapPath,
        args: buildBwrapArgs({ ...layout, id }),
        env,
        dispose: async () => {
          // First: a sandbox bwrap left behind (killed while starting) still holds the bridge's sockets.
          await endStraySandboxes(id);
          await bridge?.close();
        },
      };
    } catch (error) {
      await bridge?.close();
      throw error;
    }
  };

  return {
    mode: settings.mode,
    async wrap(request, file, args) {
      if (settings.mode === 'off')
        return { file, args: [...args], env: { ...request.env }, dispose: async () => {} };
      return wrapOn(request, file, args);
    },
  };
}
