/** One port the forwarder listens on inside the sandbox, and the unix socket it relays each connection to. */
export interface ForwardedPort {
  port: number;
  socket: string;
}

/** The interpreters the forwarder can use inside the sandbox. */
export interface ForwarderTools {
  /** Runs the forwarder when perl is absent. */
  nodePath: string;
  /** When present, runs the forwarder (PERL_FORWARDER), and node is not needed. */
  perlPath?: string;
}

/** Pipes one accepted connection to its unix socket (CommonJS, `node -e`). */
const RELAY_FUNCTION = `
const net = require('node:net');
const relay = (socket) => (client) => {
  const upstream = net.connect({ path: socket, allowHalfOpen: true });
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
  client.pipe(upstream);
  upstream.pipe(client);
};
const fail = (message) => {
  process.stderr.write('flotilla sandbox: ' + message + '\\n');
  process.exit(125);
};
`;

/**
 * Runs inside the sandbox when perl is absent (CommonJS, `node -e`): listens on 127.0.0.1 (and ::1 when it
 * can) at each port, relays every connection to its unix socket, then runs the command with the same stdio,
 * forwards signals and exits as it did. Half-open connections stay open so a client may end its request and
 * still read. The command waits for node's start (~30–50 ms): used only where perl is not.
 */
export const FORWARDER_SCRIPT = `${RELAY_FUNCTION}
const { spawn } = require('node:child_process');
const [config, file, ...args] = process.argv.slice(1);
const ports = JSON.parse(config);
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];
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

/**
 * The forwarder when perl is present (perl starts in a few milliseconds where node takes tens, and needs
 * no CPU beside the command's own start): binds and listens on 127.0.0.1 (and ::1 when it can) at each
 * port, forks the relay (detached, reparented to the sandbox's init), then execs the command in its own
 * place — same process, stdio, signals and exit status. The relay accepts each connection in a process of
 * its own that pumps bytes both ways to the unix socket, half-closes passed on. The ports listen before the
 * command starts, so no connection it makes can be refused or lost; the command does not inherit the
 * sockets (close-on-exec), so if the relay dies they close and connections are refused, not held.
 * Arguments: `port=socket,…`, then the command. Exit 125 with `flotilla sandbox: …` when it cannot.
 */
export const PERL_FORWARDER = `
# Linux's constants, so that no module loads (Socket takes longer to load than perl to start).
sub PF_UNIX () { 1 } sub PF_INET () { 2 } sub PF_INET6 () { 10 } sub SOCK_STREAM () { 1 }
sub IPPROTO_IPV6 () { 41 } sub IPV6_V6ONLY () { 26 } sub F_SETFD () { 2 } sub FD_CLOEXEC () { 1 }
$^F = 1023;
my ($spec, @command) = @ARGV;
sub fail { print STDERR "flotilla sandbox: $_[0]\\n"; exit 125 }
my (@handles, %socket_of);
for my $entry (split /,/, $spec) {
  my ($port, $path) = split /=/, $entry, 2;
  socket(my $v4, PF_INET, SOCK_STREAM, 0) or fail("cannot open a socket: $!");
  bind($v4, pack('S n C4 x8', PF_INET, $port, 127, 0, 0, 1)) && listen($v4, 128)
    or fail("cannot listen on 127.0.0.1:$port: $!");
  push @handles, $v4; $socket_of{fileno $v4} = $path;
  if (socket(my $v6, PF_INET6, SOCK_STREAM, 0)) {
    setsockopt($v6, IPPROTO_IPV6, IPV6_V6ONLY, 1);
    if (bind($v6, pack('S n N a16 N', PF_INET6, $port, 0, "\\0" x 15 . "\\1", 0)) && listen($v6, 128)) {
      push @handles, $v6; $socket_of{fileno $v6} = $path;
    }
  }
}
sub pump {
  my ($client, $path) = @_;
  socket(my $upstream, PF_UNIX, SOCK_STREAM, 0) or return;
  connect($upstream, pack('S a*', PF_UNIX, "$path\\0")) or return;
  my @ends = ([$client, $upstream], [$upstream, $client]);
  while (@ends) {
    my $bits = '';
    vec($bits, fileno($_->[0]), 1) = 1 for @ends;
    select(my $ready = $bits, undef, undef, undef) > 0 or next;
    for my $end (@ends) {
      my ($from, $to) = @$end;
      next unless vec($ready, fileno($from), 1);
      my $read = sysread($from, my $data, 65536);
      return unless defined $read;
      if ($read == 0) { shutdown($to, 1); $end = undef; next }
      while (length $data) {
        my $written = syswrite($to, $data) // return;
        substr($data, 0, $written) = '';
      }
    }
    @ends = grep { defined } @ends;
  }
}
my $pid = fork // fail("cannot fork: $!");
if ($pid == 0) {
  exit 0 if fork // fail("cannot fork: $!");
  open STDIN, '<', '/dev/null'; open STDOUT, '>', '/dev/null';
  $SIG{CHLD} = 'IGNORE';
  my $all = '';
  vec($all, fileno($_), 1) = 1 for @handles;
  while (1) {
    select(my $ready = $all, undef, undef, undef) > 0 or next;
    for my $listening (grep { vec($ready, fileno($_), 1) } @handles) {
      accept(my $client, $listening) or next;
      my $path = $socket_of{fileno $listening};
      my $child = fork;
      if (defined $child && $child == 0) {
        close $_ for @handles;
        pump($client, $path);
        exit 0;
      }
      close $client;
    }
  }
}
waitpid $pid, 0;
fcntl $_, F_SETFD, FD_CLOEXEC for @handles;
exec { $command[0] } @command;
fail("cannot run $command[0]: $!");
`;

/**
 * The command the sandbox runs when it forwards ports: with perl, `perl -e <forwarder> -- <ports> <file>
 * <args…>` (the command starts at once); without, `node -e <forwarder> -- <ports> <file> <args…>`.
 */
export function buildForwarderCommand(
  tools: ForwarderTools,
  ports: readonly ForwardedPort[],
  file: string,
  args: readonly string[],
): string[] {
  if (tools.perlPath === undefined) {
    return [tools.nodePath, '-e', FORWARDER_SCRIPT, '--', JSON.stringify(ports), file, ...args];
  }
  for (const { socket } of ports) {
    if (/[,=]/.test(socket)) throw new Error(`sandbox: forwarder socket path ${socket} contains , or =`);
  }
  const spec = ports.map(({ port, socket }) => `${port}=${socket}`).join(',');
  return [tools.perlPath, '-e', PERL_FORWARDER, '--', spec, file, ...args];
}
