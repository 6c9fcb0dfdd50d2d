/** Where a sandboxed process may connect, sorted by how it gets there. */
export interface NetworkTargets {
  /** Loopback endpoints of Flotilla's machine: each port is forwarded into the sandbox on 127.0.0.1. */
  loopback: readonly { host: string; port: number }[];
  /** Other `host:port` pairs (lower-case host), reachable only through the sandbox's CONNECT proxy. */
  proxied: readonly string[];
}

/** The names that mean "this machine" and are forwarded as such (other 127.x addresses go through the proxy). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };
const HOST_PORT = /^(?<host>\[[0-9a-f:]+\]|[a-z0-9.-]+)(?::(?<port>\d{1,5}))?$/i;

/**
 * Sorts a request's `network` entries and the settings' `networkAllow` into loopback ports to forward and
 * `host:port` pairs for the proxy. An entry is a URL (`http://127.0.0.1:8080`, `https://api.anthropic.com`),
 * `host:port` or a bare host (port 443). A malformed entry throws, naming it and `source`: nothing is widened
 * by guessing.
 */
export function parseNetworkTargets(entries: readonly { value: string; source: string }[]): NetworkTargets {
  const loopback = new Map<number, { host: string; port: number }>();
  const proxied = new Set<string>();
  for (const { value, source } of entries) {
    const { host, port } = parseEntry(value, source);
    if (LOOPBACK_HOSTS.has(host)) {
      if (!loopback.has(port)) loopback.set(port, { host, port });
    } else {
      proxied.add(`${host.includes(':') ? `[${host}]` : host}:${port}`);
    }
  }
  return {
    loopback: [...loopback.values()].sort((a, b) => a.port - b.port),
    proxied: [...proxied].sort(),
  };
}

function parseEntry(value: string, source: string): { host: string; port: number } {
  const problem = (why: string) =>
    new Error(
      `${source}: "${value}" ${why}; expected a URL (https://api.example.com, http://127.0.0.1:8080), host:port or a host name`,
    );
  const trimmed = value.trim();
  if (trimmed.includes('://')) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw problem('is not a valid URL');
    }
    const defaultPort = DEFAULT_PORTS[url.protocol];
    if (defaultPort === undefined) throw problem(`has protocol ${url.protocol}, not http: or https:`);
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return { host, port: url.port === '' ? defaultPort : Number(url.port) };
  }
  const match = HOST_PORT.exec(trimmed);
  if (match?.groups === undefined) throw problem('is not a host name');
  const host = (match.groups.host ?? '').replace(/^\[|\]$/g, '').toLowerCase();
  const port = match.groups.port === undefined ? 443 : Number(match.groups.port);
  if (port < 1 || port > 65_535) throw problem('has a port outside 1–65535');
  return { host, port };
}
