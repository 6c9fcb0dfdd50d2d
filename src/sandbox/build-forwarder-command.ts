/** One port the forwarder listens on inside the sandbox, and the unix socket it relays each connection to. */
export interface ForwardedPort {
  port: number;
  socket: string;
}

/**
 * Runs inside the sandbox (CommonJS, `node -e`): listens on 127.0.0.1 (and ::1 when it can) at each port,
 * relays every connection to its unix socket, then runs the command with the same stdio, forwards signals
 * and exits as it did. Half-open connections stay open so a client may end its request and still read.
 */
export const FORWARDER_SCRIPT = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [config, file, ...args] = process.argv.slice(1);
const ports = JSON.parse(config);
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];
const fail = (message) => {
  process.stderr.write('flotilla sandbox: ' + message + '\\n');
  process.exit(125);
};
const relay = (socket) => (client) => {
  const upstream = net.connect({ path: socket, allowHalfOpen: true });
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
  client.pipe(upstream);
  upstream.pipe(client);
};
const start = () => {
  const child = spawn(file, args, { stdio: 'inherit' });
  for (const signal of SIGNALS) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => fail('cannot run ' + file + ': ' + error.message));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code);
    for (const name of SIGNALS) process.removeAllListeners(name);
    process.kill(process.pid, signal);
    process.exit(128);
  });
};
let waiting = ports.length;
for (const { port, socket } of ports) {
  const server = net.createServer({ allowHalfOpen: true }, relay(socket));
  server.on('error', (error) => fail('cannot listen on 127.0.0.1:' + port + ': ' + error.message));
  server.listen(port, '127.0.0.1', () => { waiting -= 1; if (waiting === 0) start(); });
  net.createServer({ allowHalfOpen: true }, relay(socket)).on('error', () => {}).listen(port, '::1');
}
`;

/** `node -e <forwarder> -- <ports> <file> <args…>`: the command the sandbox runs when it forwards ports. */
export function buildForwarderCommand(
  nodePath: string,
  ports: readonly ForwardedPort[],
  file: string,
  args: readonly string[],
): string[] {
  return [nodePath, '-e', FORWARDER_SCRIPT, '--', JSON.stringify(ports), file, ...args];
}
