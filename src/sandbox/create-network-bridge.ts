import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ForwardedPort } from './build-forwarder-command.ts';
import type { NetworkTargets } from './parse-network-targets.ts';

/** Where the bridge's socket directory appears inside the sandbox (an empty private `/run` holds it). */
export const SANDBOX_SOCKET_DIR = '/run/flotilla-net';
/** The CONNECT proxy's port inside the sandbox, unless a forwarded port takes it. */
const PREFERRED_PROXY_PORT = 3128;
/** A CONNECT request's head larger than this is refused. */
const MAX_HEAD_BYTES = 16 * 1024;

export interface NetworkBridge {
  /** The directory of unix sockets, outside; bind it read-only at SANDBOX_SOCKET_DIR. */
  socketDir: string;
  /** What the in-sandbox forwarder listens on, with socket paths as seen inside. */
  ports: ForwardedPort[];
  /** The proxy's port inside the sandbox, when some host is reached through it. */
  proxyPort?: number;
  /** The socket, as seen inside, on which the forwarder reports direct connections the sandbox refused. */
  reportSocket: string;
  /** Stops listening, ends open connections and removes the sockets. */
  close(): Promise<void>;
}

export interface NetworkBridgeOptions {
  /** Where the socket directory is created (short: unix socket paths are limited to 107 bytes). */
  tmpDir: string;
  /**
   * Told each connection refused: a CONNECT the proxy refused (`host:port`), or a direct connection the
   * sandbox's own kernel refused (DIRECT_REFUSAL: a loopback port that is not forwarded, port unknown).
   */
  onRefused?: (target: string) => void;
}

/** How a direct connection the sandbox's kernel refused is named: only a counter shows it, not its port. */
export const DIRECT_REFUSAL = 'a loopback port that is not forwarded';
/** The most refusals one report of the forwarder counts (the report socket is reachable from inside). */
const MAX_REPORTED = 100;

/**
 * The outside half of the sandbox's network: for each loopback target, a unix socket whose connections are
 * relayed to the real `host:port`; for the others, a unix socket serving an HTTP CONNECT proxy that tunnels
 * only to the allowed `host:port` pairs and answers 403 to anything else (plain-HTTP proxying included).
 */
export async function createNetworkBridge(
  targets: NetworkTargets,
  options: NetworkBridgeOptions,
): Promise<NetworkBridge> {
  const socketDir = await mkdtemp(join(options.tmpDir, 'flotilla-net-'));
  await chmod(socketDir, 0o700);
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    await rm(socketDir, { recursive: true, force: true });
  };
  try {
    const ports: ForwardedPort[] = [];
    for (const { host, port } of targets.loopback) {
      const name = `port-${port}.sock`;
      const server = createServer({ allowHalfOpen: true }, (client) => {
        track(client);
        const upstream = connect({ host, port, allowHalfOpen: true });
        track(upstream);
        splice(client, upstream);
      });
      await listen(server, join(socketDir, name));
      servers.push(server);
      ports.push({ port, socket: `${SANDBOX_SOCKET_DIR}/${name}` });
    }
    // The forwarder's reports: `refused N` lines, each connection a direct refusal. The agent can reach this
    // socket too; all it can do is report refusals of its own, never a target.
    const report = createServer((client) => {
      track(client);
      let text = '';
      client.setEncoding('latin1');
      client.on('data', (chunk: string) => {
        text = (text + chunk).slice(-64);
      });
      client.on('end', () => {
        const count = Math.min(Number(/^refused (\d{1,6})\n?$/.exec(text)?.[1] ?? 0), MAX_REPORTED);
        for (let index = 0; index < count; index += 1) options.onRefused?.(DIRECT_REFUSAL);
        client.end();
      });
      client.on('error', () => client.destroy());
    });
    await listen(report, join(socketDir, 'report.sock'));
    servers.push(report);
    const reportSocket = `${SANDBOX_SOCKET_DIR}/report.sock`;
    if (targets.proxied.length === 0) return { socketDir, ports, reportSocket, close };
    const allowed = new Set(targets.proxied);
    const server = createServer({ allowHalfOpen: true }, (client) => {
      track(client);
      serveConnect(client, allowed, track, options.onRefused);
    });
    await listen(server, join(socketDir, 'proxy.sock'));
    servers.push(server);
    let proxyPort = PREFERRED_PROXY_PORT;
    while (ports.some((forwarded) => forwarded.port === proxyPort)) proxyPort += 1;
    ports.push({ port: proxyPort, socket: `${SANDBOX_SOCKET_DIR}/proxy.sock` });
    return { socketDir, ports, proxyPort, reportSocket, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Reads one request head; tunnels a CONNECT to an allowed target, refuses everything else. */
function serveConnect(
  client: Socket,
  allowed: ReadonlySet<string>,
  track: (socket: Socket) => void,
  onRefused: ((target: string) => void) | undefined,
): void {
  let head = Buffer.alloc(0);
  const answer = (status: string, reason: string) => {
    client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${reason}\n`);
  };
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) {
      if (head.length > MAX_HEAD_BYTES)
        answer('431 Request Header Fields Too Large', 'request head too large');
      return;
    }
    client.off('data', onData);
    client.pause();
    const [method = '', target = ''] =
      head.subarray(0, end).toString('latin1').split('\r\n')[0]?.split(' ') ?? [];
    const normalized = target.toLowerCase();
    if (method !== 'CONNECT' || !allowed.has(normalized)) {
      onRefused?.(method === 'CONNECT' ? normalized : `${method} ${target}`);
      answer(
        '403 Forbidden',
        method === 'CONNECT'
          ? `flotilla sandbox: ${normalized} is not in the sandbox's network allow-list (sandbox.network.allow)`
          : 'flotilla sandbox: only CONNECT (https) to allowed hosts goes through this proxy',
      );
      return;
    }
    const colon = normalized.lastIndexOf(':');
    const host = normalized.slice(0, colon).replace(/^\[|\]$/g, '');
    const upstream = connect({ host, port: Number(normalized.slice(colon + 1)), allowHalfOpen: true });
    track(upstream);
    const rest = head.subarray(end + 4);
    let connected = false;
    upstream.once('error', (error) => {
      if (!connected) answer('502 Bad Gateway', `flotilla sandbox: ${error.message}`);
    });
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (rest.length > 0) upstream.write(rest);
      splice(client, upstream);
      client.resume();
    });
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
}

/** Pipes two sockets both ways; either failing ends both. */
function splice(a: Socket, b: Socket): void {
  const close = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', close).on('close', close);
  b.on('error', close).on('close', close);
  a.pipe(b);
  b.pipe(a);
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
