import { isWithin } from './is-within.ts';

/** The sandbox home when the request's own HOME is not a writable directory: in the private /tmp. */
export const SANDBOX_HOME = '/tmp/home';

/**
 * The environment bwrap is started with, which is exactly what the sandboxed process gets: the request's,
 * plus HOME (kept when the request points it into a writable directory, else the sandbox home), TMPDIR and,
 * when some host goes through the proxy, the proxy variables. Nothing of Flotilla's own environment: with a
 * private PID namespace bwrap is PID 1 inside, and its environment is readable at `/proc/1/environ`.
 */
export function buildSandboxEnv(
  requestEnv: Readonly<Record<string, string>>,
  options: { writable: readonly string[]; proxyPort?: number },
): { env: Record<string, string>; createHome: boolean } {
  const env: Record<string, string> = { ...requestEnv };
  const ownHome = requestEnv.HOME;
  const keepHome = ownHome !== undefined && options.writable.some((dir) => isWithin(dir, ownHome));
  if (!keepHome) env.HOME = SANDBOX_HOME;
  env.TMPDIR = '/tmp';
  if (options.proxyPort !== undefined) {
    const proxy = `http://127.0.0.1:${options.proxyPort}`;
    Object.assign(env, {
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      https_proxy: proxy,
      http_proxy: proxy,
      NO_PROXY: '127.0.0.1,localhost,::1',
      no_proxy: '127.0.0.1,localhost,::1',
    });
  }
  return { env, createHome: !keepHome };
}
