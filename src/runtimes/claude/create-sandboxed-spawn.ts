import { spawn } from 'node:child_process';
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';
import type { SandboxedCommand } from '../../sandbox/sandbox-types.ts';

/**
 * The SDK's `spawnClaudeCodeProcess`: starts the claude CLI inside the run's sandbox. The sandbox was set up
 * for `executable` with no arguments (the command is the invocation's tail), so each session (a fix round or
 * a resume starts another process) appends the SDK's arguments to the same invocation. The environment is
 * the SDK's (built from the agent's allow-listed one) with the sandbox's own settings over it; nothing of
 * Flotilla's environment is added. Any other command is refused: the sandbox was made for this one.
 */
export function createSandboxedSpawn(
  sandboxed: SandboxedCommand,
  executable: string,
  onStderr: (text: string) => void,
): (options: SpawnOptions) => SpawnedProcess {
  return (options) => {
    if (options.command !== executable) {
      throw new Error(`sandbox: expected to start ${executable}, was asked to start ${options.command}`);
    }
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value;
    Object.assign(env, sandboxed.env);
    const child = spawn(sandboxed.file, [...sandboxed.args, ...options.args], {
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: options.signal,
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => onStderr(text));
    return child;
  };
}
