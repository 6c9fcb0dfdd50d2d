import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ClaudeExecutableHost, findClaudeExecutable } from './find-claude-executable.ts';

const SDK = '@anthropic-ai/claude-agent-sdk';

/** A host whose installed platform packages are `installed`; it counts the libc checks. */
function hostWith(installed: string[], fields: Partial<ClaudeExecutableHost> = {}) {
  let muslChecks = 0;
  const host: ClaudeExecutableHost = {
    platform: 'linux',
    arch: 'x64',
    isMusl: () => {
      muslChecks += 1;
      return false;
    },
    resolve: (id) => {
      const name = id.slice(0, id.lastIndexOf('/'));
      if (!installed.includes(name)) throw new Error(`Cannot find module '${id}'`);
      return `/nm/${id}`;
    },
    exists: () => true,
    ...fields,
  };
  return { host, muslChecks: () => muslChecks };
}

describe('findClaudeExecutable', () => {
  it('finds the binary the SDK installed on this machine', () => {
    const path = findClaudeExecutable();
    expect(path).not.toBeNull();
    expect(path).toMatch(new RegExp(`${SDK}-${process.platform}-${process.arch}`));
    expect(existsSync(path as string)).toBe(true);
  });

  it('prefers the glibc build on glibc Linux, and falls back to the musl one', () => {
    const both = hostWith([`${SDK}-linux-x64`, `${SDK}-linux-x64-musl`]);
    expect(findClaudeExecutable(both.host)).toBe(`/nm/${SDK}-linux-x64/claude`);
    const muslOnly = hostWith([`${SDK}-linux-x64-musl`]);
    expect(findClaudeExecutable(muslOnly.host)).toBe(`/nm/${SDK}-linux-x64-musl/claude`);
  });

  it('prefers the musl build on musl Linux', () => {
    const { host } = hostWith([`${SDK}-linux-arm64`, `${SDK}-linux-arm64-musl`], {
      arch: 'arm64',
      isMusl: () => true,
    });
    expect(findClaudeExecutable(host)).toBe(`/nm/${SDK}-linux-arm64-musl/claude`);
  });

  it('asks about the C library only on Linux, and names the Windows binary .exe', () => {
    const mac = hostWith([`${SDK}-darwin-arm64`], { platform: 'darwin', arch: 'arm64' });
    expect(findClaudeExecutable(mac.host)).toBe(`/nm/${SDK}-darwin-arm64/claude`);
    expect(mac.muslChecks()).toBe(0);
    const windows = hostWith([`${SDK}-win32-x64`], { platform: 'win32' });
    expect(findClaudeExecutable(windows.host)).toBe(`/nm/${SDK}-win32-x64/claude.exe`);
  });

  it('is null when no platform package is installed, or its binary is missing', () => {
    expect(findClaudeExecutable(hostWith([]).host)).toBeNull();
    expect(findClaudeExecutable(hostWith([`${SDK}-linux-x64`], { exists: () => false }).host)).toBeNull();
  });
});
