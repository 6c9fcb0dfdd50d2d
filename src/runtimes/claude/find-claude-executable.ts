import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The SDK package; its native `claude` binary ships in one optional dependency per platform. */
const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';

/** What the lookup depends on, passed in so a test can play another platform. */
export interface ClaudeExecutableHost {
  platform: NodeJS.Platform;
  arch: string;
  /** Linux with musl's C library rather than glibc. Asked at most once, and only on Linux. */
  isMusl: () => boolean;
  /** Module resolution as the SDK itself sees it (from its own folder). Throws when not installed. */
  resolve: (id: string) => string;
  exists: (path: string) => boolean;
}

/**
 * The `claude` binary the SDK would start, found the way the SDK finds it (its platform package, the
 * musl build first on a musl Linux), or null when no platform package is installed.
 *
 * Found once per runtime and passed as `pathToClaudeCodeExecutable`: left to itself the SDK looks it up
 * on every query(), and its glibc check (`process.report.getReport()`) blocks the event loop for about
 * ten milliseconds each time, on the path of every run (bench/adapter-overhead).
 */
export function findClaudeExecutable(host: ClaudeExecutableHost = buildLocalHost()): string | null {
  const extension = host.platform === 'win32' ? '.exe' : '';
  const base = `${SDK_PACKAGE}-${host.platform}-${host.arch}`;
  const packages =
    host.platform === 'android'
      ? [`${SDK_PACKAGE}-linux-${host.arch}-android`]
      : host.platform === 'linux'
        ? host.isMusl()
          ? [`${base}-musl`, base]
          : [base, `${base}-musl`]
        : [base];
  for (const name of packages) {
    try {
      const path = host.resolve(`${name}/claude${extension}`);
      if (host.exists(path)) return path;
    } catch {
      // That platform package is not installed: try the next.
    }
  }
  return null;
}

/** This process's platform, resolving from the SDK's own location as the SDK does. */
function buildLocalHost(): ClaudeExecutableHost {
  // A literal specifier: the dependency rules check what this folder resolves (only it may use the SDK).
  const requireFromSdk = createRequire(import.meta.resolve('@anthropic-ai/claude-agent-sdk'));
  return {
    platform: process.platform,
    arch: process.arch,
    isMusl: () => {
      const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
      return report !== undefined && report.header?.glibcVersionRuntime === undefined;
    },
    resolve: (id) => requireFromSdk.resolve(id),
    exists: existsSync,
  };
}
