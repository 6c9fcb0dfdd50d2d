import { isIP } from 'node:net';

export const DEFAULT_LISTEN_ADDRESS = '127.0.0.1:7070';

/** A parsed `--listen` address; `loopback` decides whether a token is required. */
export interface ListenAddress {
  host: string;
  port: number;
  loopback: boolean;
}

/**
 * Parses `host:port`, `[v6]:port`, `:port` (loopback) or a bare port. Throws an Error naming what is
 * expected. Only 127.0.0.0/8, ::1 and `localhost` count as loopback.
 */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(text) ?? /^()()(\d+)$/.exec(text);
  if (match === null) {
    throw new Error(
      `--listen "${text}" is not an address; expected host:port, e.g. ${DEFAULT_LISTEN_ADDRESS}`,
    );
  }
  const host = match[1] ?? (match[2] === '' || match[2] === undefined ? '127.0.0.1' : match[2]);
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--listen "${text}": port ${match[3]} is out of range 0-65535`);
  }
  if (host !== 'localhost' && isIP(host) === 0) {
    throw new Error(`--listen "${text}": "${host}" is not an IP address (or localhost)`);
  }
  return { host, port, loopback: isLoopbackHost(host) };
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}
