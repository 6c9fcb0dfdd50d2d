import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { lstat, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createSandboxFixture,
  PLANTED_KEY,
  runSandboxed,
  type SandboxFixture,
  TEST_PATH,
} from '../../test/support/sandbox/create-sandbox-fixture.ts';
import { extractPatch } from '../workspace/extract-patch.ts';
import { SANDBOX_HOME } from './build-sandbox-env.ts';
import { DIRECT_REFUSAL } from './create-network-bridge.ts';
import { createSandbox } from './create-sandbox.ts';
import { findOnPath } from './find-on-path.ts';

let fixture: SandboxFixture;
beforeEach(async () => {
  fixture = await createSandboxFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const sandboxOf = (overrides: Partial<SandboxFixture['settings']> = {}) =>
  createSandbox({ ...fixture.settings, ...overrides }, { homeDir: fixture.home });

/** Runs `script` with sh in worktree a's sandbox. */
async function sh(script: string, request = fixture.request()) {
  const command = await sandboxOf().wrap(request, 'sh', ['-c', script]);
  return runSandboxed(command);
}

/**
 * bash, connecting to 127.0.0.1:$1 as soon as it starts (long before node could listen) and asking for `/`:
 * `served BODY`, `dropped` (accepted, then closed) or `refused`.
 */
const CONNECT_AT_ONCE = `if exec 3<>/dev/tcp/127.0.0.1/$1; then
  printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3
  reply=$(cat <&3)
  case "$reply" in *' 200 '*) echo "served \${reply##*$'\\n'}" ;; *) echo dropped ;; esac
else echo refused; fi 2>/dev/null`;

const findOnPathOrFail = (name: string) => {
  const path = findOnPath(name, process.env.PATH ?? '');
  if (path === undefined) throw new Error(`${name} is not on PATH`);
  return path;
};

/** `ok NAME` when `attempt` succeeds inside, `denied NAME` otherwise. */
const probe = (name: string, attempt: string) =>
  `if ${attempt} 2>/dev/null; then echo "ok ${name}"; else echo "denied ${name}"; fi`;

describe('createSandbox: the file system', () => {
  it('lets the agent write its worktree and nothing else', async () => {
    const { repo, worktreeB, home } = fixture;
    const result = await sh(
      [
        probe('worktree', 'echo hi > inside.txt'),
        probe('repo-root', `echo x > ${repo.root}/planted.txt`),
        probe('hooks', `echo x > ${repo.root}/.git/hooks/pre-commit`),
        probe('git-config', `echo x >> ${repo.root}/.git/config`),
        probe('other-worktree', `echo x > ${worktreeB}/planted.txt`),
        probe('home', `echo x > ${home}/planted.txt`),
        probe('worktree-git-file', 'echo "gitdir: /elsewhere" > .git'),
      ].join('\n'),
    );
    expect(result.stdout.trim().split('\n')).toEqual([
      'ok worktree',
      'denied repo-root',
      'denied hooks',
      'denied git-config',
      'denied other-worktree',
      'denied home',
      'denied worktree-git-file',
    ]);
    expect(readFileSync(join(fixture.worktreeA, 'inside.txt'), 'utf8')).toBe('hi\n');
    expect(existsSync(join(repo.root, 'planted.txt'))).toBe(false);
    expect(existsSync(join(repo.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(join(worktreeB, 'planted.txt'))).toBe(false);
    expect(readFileSync(join(fixture.worktreeA, '.git'), 'utf8')).toMatch(
      /^gitdir: .*\.git\/worktrees\/a\n$/,
    );
  });

  it('refuses writes through a symlink planted in the worktree that leads into .git/hooks', async () => {
    await symlink('../../.git/hooks', join(fixture.worktreeA, 'lnk'));
    const result = await sh(
      [
        probe('through-link', 'printf "#!/bin/sh\\necho pwned\\n" > lnk/pre-commit'),
        probe('ls-link', 'ls lnk/ >/dev/null'),
      ].join('\n'),
    );
    expect(result.stdout.trim().split('\n')).toEqual(['denied through-link', 'ok ls-link']);
    expect(existsSync(join(fixture.repo.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it("hides Flotilla's state, the other worktrees and the home directory, and shows the repository", async () => {
    const { repo, worktreeB, home } = fixture;
    const result = await sh(
      [
        probe('readme', `cat ${repo.root}/README.md >/dev/null`),
        probe('state', `cat ${repo.root}/.flotilla/flotilla.db`),
        probe('other-worktree', `cat ${worktreeB}/secret-of-b.txt`),
        probe('ssh-key', `cat ${home}/.ssh/id_rsa`),
        'ls -A $HOME',
        'echo "HOME=$HOME"',
      ].join('\n'),
    );
    expect(result.stdout).toContain('ok readme');
    expect(result.stdout).toContain('denied state');
    expect(result.stdout).toContain('denied other-worktree');
    expect(result.stdout).toContain('denied ssh-key');
    expect(result.stdout).not.toContain(PLANTED_KEY);
    expect(result.stdout).toContain(`HOME=${SANDBOX_HOME}`);
  });

  it('hides settings.denyRead and re-exposes settings.allowRead under a hidden directory', async () => {
    await writeFile(join(fixture.home, 'toolchain.txt'), 'tool');
    await writeFile(join(fixture.repo.root, 'secret.env'), 'SECRET=1');
    const command = await createSandbox(
      {
        ...fixture.settings,
        allowRead: [...fixture.settings.allowRead, join(fixture.home, 'toolchain.txt')],
        denyRead: [join(fixture.repo.root, 'secret.env')],
      },
      { homeDir: fixture.home },
    ).wrap(fixture.request(), 'sh', [
      '-c',
      `cat ${fixture.home}/toolchain.txt; echo; cat ${fixture.repo.root}/secret.env; echo end`,
    ]);
    const result = await runSandboxed(command);
    // The denied file reads as empty (/dev/null over it).
    expect(result.stdout).toBe('tool\nend\n');
  });

  it('keeps the private /tmp writable and separate from the real one', async () => {
    const marker = `flotilla-sandbox-tmp-${randomUUID()}`;
    const result = await sh(`echo x > /tmp/${marker} && cat /tmp/${marker}`);
    expect(result.stdout).toBe('x\n');
    expect(existsSync(join('/tmp', marker))).toBe(false);
  });
});

describe('createSandbox: processes and environment', () => {
  const SECRET = 'planted-secret-value-x';
  beforeAll(() => {
    process.env.SECRET_X = SECRET;
  });
  afterAll(() => {
    delete process.env.SECRET_X;
  });

  it.each([
    ['without network', [] as string[]],
    ['with a forwarded port', ['http://127.0.0.1:9']],
  ])("shows no variable of Flotilla's environment in any /proc/*/environ (%s)", async (_name, network) => {
    const result = await sh(
      'for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < $f; done; echo end',
      fixture.request({ network, env: { PATH: TEST_PATH, ASKED_FOR: 'yes' } }),
    );
    expect(result.stdout).toContain('ASKED_FOR=yes');
    expect(result.stdout).toContain('end');
    expect(result.stdout).not.toContain('SECRET_X');
    expect(result.stdout).not.toContain(SECRET);
    for (const line of result.stdout.trim().split('\n')) {
      const name = line.split('=')[0] ?? '';
      // PWD: sh exports its own; FLOTILLA_SANDBOX_ID: the invocation's id (README.md, what it guarantees).
      expect(['PATH', 'ASKED_FOR', 'HOME', 'TMPDIR', 'PWD', 'FLOTILLA_SANDBOX_ID', 'end', '']).toContain(
        name,
      );
    }
  });

  it("shows only the sandbox's own processes in /proc", async () => {
    const result = await sh('for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline; echo; done');
    const commands = result.stdout.trim().split('\n');
    expect(commands.length).toBeLessThanOrEqual(4);
    expect(commands[0]).toMatch(/^\/usr\/bin\/bwrap /);
    expect(result.stdout).not.toMatch(/vitest|node/);
  });

  it('leaves no process behind when the wrapper is killed', async () => {
    const marker = `FLOTILLA_SANDBOX_TEST=${randomUUID()}`;
    const [name = '', value = ''] = marker.split('=');
    for (const network of [[], ['http://127.0.0.1:9']]) {
      const command = await sandboxOf().wrap(
        fixture.request({ network, env: { PATH: TEST_PATH, [name]: value } }),
        'sh',
        ['-c', 'sleep 300 & sleep 300 & echo ready; wait'],
      );
      const child = spawn(command.file, command.args, {
        env: command.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
      expect(processesWith(marker).length).toBeGreaterThanOrEqual(3);
      child.kill('SIGKILL');
      await waitFor(() => processesWith(marker).length === 0);
      expect(processesWith(marker)).toEqual([]);
      await command.dispose();
    }
  });
});

describe('createSandbox: killed while it starts', () => {
  it('leaves no process behind once disposed, however early the wrapper was killed', async () => {
    // bwrap's child (the namespace's PID 1) asks to die with its parent only once it runs, and leaves
    // bwrap's process group for a session of its own: a kill that lands first used to leave it, and the
    // command it then started, running (a cancel right after the spawn).
    const marker = `FLOTILLA_SANDBOX_TEST=${randomUUID()}`;
    const [name = '', value = ''] = marker.split('=');
    const request = {
      repoRoot: fixture.repo.root,
      cwd: fixture.repo.root,
      writable: [],
      env: { PATH: TEST_PATH, [name]: value },
      network: [],
      programs: ['sleep'],
    };
    try {
      for (let round = 0; round < 6; round += 1) {
        for (let delayMs = 0; delayMs < 16; delayMs += 1) {
          const command = await sandboxOf().wrap(request, 'sleep', ['300']);
          const child = spawn(command.file, command.args, {
            env: command.env,
            stdio: 'ignore',
            detached: true,
          });
          const exited = new Promise((resolve) => child.once('exit', resolve));
          await new Promise((resolve) =>
            delayMs === 0 ? setImmediate(resolve) : setTimeout(resolve, delayMs),
          );
          process.kill(-(child.pid ?? 0), 'SIGKILL');
          await exited;
          await command.dispose();
        }
      }
      expect(processesWith(marker)).toEqual([]);
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    }
    // 96 sandboxes: ~8 s on a quiet machine, several times that on a loaded one.
  }, 120_000);
});

describe.each([
  ['perl binds, node relays', undefined],
  ['node alone', null],
] as const)('createSandbox: network (%s)', (_forwarder, perlPath) => {
  const networkSandboxOf = (overrides: Partial<SandboxFixture['settings']> = {}) =>
    createSandbox({ ...fixture.settings, ...overrides }, { homeDir: fixture.home, perlPath });
  let servers: Server[] = [];
  const serve = async (host: string, body: string): Promise<number> => {
    const server = createServer((_request, response) => response.end(body));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return (server.address() as AddressInfo).port;
  };
  afterEach(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    servers = [];
  });

  /** A tiny client run with node inside: `get HOST PORT` or `connect PROXYPORT TARGET` (CONNECT, then GET). */
  const CLIENT = `
const net = require('node:net');
const [mode, host, port, target] = process.argv.slice(1);
const socket = net.connect({ host, port: Number(port) });
let buffer = '';
let tunnelled = mode === 'get';
const get = () => socket.write('GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n');
socket.on('error', (error) => console.log('error ' + error.code));
socket.on('connect', () => mode === 'get' ? get() : socket.write('CONNECT ' + target + ' HTTP/1.1\\r\\nHost: ' + target + '\\r\\n\\r\\n'));
socket.on('data', (chunk) => {
  buffer += chunk;
  if (tunnelled || !buffer.includes('\\r\\n\\r\\n')) return;
  const status = buffer.split('\\r\\n')[0];
  if (!status.includes(' 200 ')) { console.log('refused ' + status); socket.destroy(); return; }
  tunnelled = true; buffer = ''; get();
});
socket.on('end', () => { if (tunnelled) console.log('body ' + buffer.split('\\r\\n\\r\\n').pop()); });
`;
  const client = async (request: ReturnType<SandboxFixture['request']>, args: string[], settings = {}) => {
    const command = await networkSandboxOf(settings).wrap(request, process.execPath, [
      '-e',
      CLIENT,
      '--',
      ...args,
    ]);
    return (await runSandboxed(command)).stdout.trim();
  };

  it('reaches an allowed loopback port, and no other port or address', async () => {
    const allowed = await serve('127.0.0.1', 'allowed');
    const other = await serve('127.0.0.1', 'other');
    const request = fixture.request({
      network: [`http://127.0.0.1:${allowed}`],
      programs: [process.execPath],
    });
    expect(await client(request, ['get', '127.0.0.1', String(allowed)])).toBe('body allowed');
    expect(await client(request, ['get', 'localhost', String(allowed)])).toBe('body allowed');
    expect(await client(request, ['get', '127.0.0.1', String(other)])).toBe('error ECONNREFUSED');
    expect(await client(request, ['get', '10.255.255.1', '80'])).toBe('error ENETUNREACH');
  });

  it('reports a direct connection to a port that is not forwarded (the kernel inside refused it)', async () => {
    const allowed = await serve('127.0.0.1', 'allowed');
    const other = await serve('127.0.0.1', 'other');
    const refusals: string[] = [];
    const sandbox = createSandbox(fixture.settings, {
      homeDir: fixture.home,
      perlPath,
      onNetworkRefused: (target) => refusals.push(target),
    });
    const request = fixture.request({
      network: [`http://127.0.0.1:${allowed}`],
      programs: [process.execPath, 'sh'],
    });
    // Two refused, one served; the command lives on past the forwarder's next look at the counter.
    const script = `for target in "127.0.0.1 ${other}" "127.0.0.1 ${other}" "127.0.0.1 ${allowed}"; do "$0" -e "$1" -- get $target; done; sleep 0.6`;
    const command = await sandbox.wrap(request, 'sh', ['-c', script, process.execPath, CLIENT]);
    const result = await runSandboxed(command);
    await command.dispose();
    expect(result.stdout.trim().split('\n')).toEqual([
      'error ECONNREFUSED',
      'error ECONNREFUSED',
      'body allowed',
    ]);
    expect(refusals).toEqual([DIRECT_REFUSAL, DIRECT_REFUSAL]);
  });

  it('reaches nothing at all when no network is asked for', async () => {
    const port = await serve('127.0.0.1', 'server');
    const request = fixture.request({ programs: [process.execPath] });
    expect(await client(request, ['get', '127.0.0.1', String(port)])).toBe('error ECONNREFUSED');
  });

  it('tunnels CONNECT to an allowed host:port and refuses any other with 403', async () => {
    const allowed = await serve('127.0.0.2', 'through the proxy');
    const refused = await serve('127.0.0.2', 'must not be reached');
    const refusals: string[] = [];
    const sandbox = createSandbox(
      { ...fixture.settings, networkAllow: [`127.0.0.2:${allowed}`] },
      { homeDir: fixture.home, perlPath, onNetworkRefused: (target) => refusals.push(target) },
    );
    const request = fixture.request({ network: ['https://api.anthropic.com'], programs: [process.execPath] });
    const run = async (args: string[]) => {
      const command = await sandbox.wrap(request, process.execPath, ['-e', CLIENT, '--', ...args]);
      const result = await runSandboxed(command);
      return { stdout: result.stdout.trim(), proxy: command.env.HTTPS_PROXY };
    };
    const tunnelled = await run(['connect', '127.0.0.1', '3128', `127.0.0.2:${allowed}`]);
    expect(tunnelled).toEqual({ stdout: 'body through the proxy', proxy: 'http://127.0.0.1:3128' });
    expect((await run(['connect', '127.0.0.1', '3128', `127.0.0.2:${refused}`])).stdout).toBe(
      'refused HTTP/1.1 403 Forbidden',
    );
    expect((await run(['connect', '127.0.0.1', '3128', 'example.com:443'])).stdout).toBe(
      'refused HTTP/1.1 403 Forbidden',
    );
    expect(refusals).toEqual([`127.0.0.2:${refused}`, 'example.com:443']);
  });

  it.each([
    ['directly', [] as string[]],
    ['behind the forwarder', ['http://127.0.0.1:9']],
  ])('passes stdin and stdout through and exits with the command (%s)', async (_name, network) => {
    const command = await networkSandboxOf().wrap(fixture.request({ network }), 'sh', ['-c', 'cat; exit 7']);
    const result = await runSandboxed(command, { input: '{"type":"user"}\n' });
    expect(result).toEqual({ exitCode: 7, stdout: '{"type":"user"}\n', stderr: '' });
  });

  it('serves a connection made the moment the command starts', async () => {
    const port = await serve('127.0.0.1', 'early');
    const command = await networkSandboxOf().wrap(
      fixture.request({ network: [`http://127.0.0.1:${port}`] }),
      'bash',
      ['-c', CONNECT_AT_ONCE, '--', String(port)],
    );
    expect((await runSandboxed(command)).stdout).toBe('served early\n');
  });

  it('removes the bridge sockets on dispose', async () => {
    const port = await serve('127.0.0.1', 'x');
    const command = await networkSandboxOf().wrap(
      fixture.request({ network: [`http://127.0.0.1:${port}`] }),
      'true',
      [],
    );
    const socketDir = command.args[command.args.indexOf('/run/flotilla-net') - 1] ?? '';
    expect(readdirSync(socketDir).sort()).toEqual([`port-${port}.sock`, 'report.sock']);
    await command.dispose();
    expect(existsSync(socketDir)).toBe(false);
  });
});

describe('createSandbox: the perl forwarder', () => {
  it("runs in the command's place, which holds none of its listening sockets", async () => {
    const command = await createSandbox(fixture.settings, { homeDir: fixture.home }).wrap(
      fixture.request({ network: ['http://127.0.0.1:9'] }),
      'sh',
      // Its descriptors past stdio (which node's pipes make sockets too).
      [
        '-c',
        'echo "pid $$"; for f in /proc/$$/fd/*; do [ "$(basename "$f")" -gt 2 ] && readlink "$f"; done; echo end',
      ],
    );
    expect(command.args).toContain(findOnPathOrFail('perl'));
    // pid 2: the first process bwrap's init starts is the command itself (perl exec'd into it).
    const lines = (await runSandboxed(command)).stdout.trim().split('\n');
    expect(lines[0]).toBe('pid 2');
    expect(lines.filter((line) => line.startsWith('socket:'))).toEqual([]);
    expect(lines.at(-1)).toBe('end');
  });
});

describe('createSandbox: a read-only worktree (modes investigate, refine)', () => {
  it('lets the agent read its worktree and git history, and refuses every write', async () => {
    const { worktreeA, worktreeB } = fixture;
    const request = fixture.request({ writable: [], readable: [worktreeA] });
    const result = await sh(
      [
        probe('read', 'cat src/app.txt >/dev/null'),
        probe('git-log', 'git log --oneline >/dev/null'),
        probe('write', 'echo x > planted.txt'),
        probe('edit', 'echo x >> src/app.txt'),
        probe('delete', 'rm src/app.txt'),
        probe('mkdir', 'mkdir made'),
        probe('git-commit', 'git commit --allow-empty --quiet -m planted'),
        probe('other-worktree', `cat ${worktreeB}/secret-of-b.txt`),
        probe('tmp', 'echo x > /tmp/scratch.txt'),
      ].join('\n'),
      request,
    );
    expect(result.stdout.trim().split('\n')).toEqual([
      'ok read',
      'ok git-log',
      'denied write',
      'denied edit',
      'denied delete',
      'denied mkdir',
      'denied git-commit',
      'denied other-worktree',
      'ok tmp',
    ]);
    expect(existsSync(join(worktreeA, 'planted.txt'))).toBe(false);
    expect(readFileSync(join(worktreeA, 'src/app.txt'), 'utf8')).toBe('app\n');
  });
});

describe('createSandbox: git', () => {
  it("commits inside into the sandbox's own git directory; the repository's .git does not change", async () => {
    const { repo, worktreeA, baseCommit } = fixture;
    const before = await snapshotTree(join(repo.root, '.git'));
    const request = fixture.request({
      gitWorktree: { worktree: worktreeA, gitStateDir: join(fixture.base, 'run-a') },
      writable: [worktreeA, join(fixture.base, 'run-a')],
    });
    await import('node:fs/promises').then(({ mkdir }) => mkdir(join(fixture.base, 'run-a')));
    const result = await sh(
      [
        'echo committed > committed.txt',
        'git add committed.txt',
        'git commit --quiet -m "agent work"',
        'echo uncommitted > uncommitted.txt',
        'git status --short',
        'git log --format=%s',
        'git diff --stat HEAD~1 | tail -1',
        probe('hooks-path', `git config core.hooksPath ${repo.root}/.git/hooks`),
        probe('write-object-into-repo', `git --git-dir=${repo.root}/.git hash-object -w committed.txt`),
        probe('branch-in-repo', `git --git-dir=${repo.root}/.git branch planted`),
      ].join('\n'),
      request,
    );
    expect(result.stdout.split('\n')).toEqual([
      '?? uncommitted.txt',
      'agent work',
      'init',
      ' 1 file changed, 1 insertion(+)',
      'ok hooks-path',
      'denied write-object-into-repo',
      'denied branch-in-repo',
      '',
    ]);
    expect(await snapshotTree(join(repo.root, '.git'))).toEqual(before);

    const patch = await extractPatch({ worktreePath: worktreeA, baseCommit });
    expect(patch).toContain('+++ b/committed.txt');
    expect(patch).toContain('+++ b/uncommitted.txt');
  });
});

describe('createSandbox: refusals', () => {
  it('rejects, naming the problem, when bwrap is unavailable, and never runs unsandboxed', async () => {
    const sandbox = createSandbox(fixture.settings, {
      checkAvailability: () => ({
        available: false,
        problems: ['bubblewrap (bwrap) is not on PATH: apt-get install bubblewrap'],
      }),
    });
    await expect(sandbox.wrap(fixture.request(), 'true', [])).rejects.toThrow(/apt-get install bubblewrap/);
  });

  it('rejects a writable directory that would expose the repository .git, or is missing', async () => {
    const { repo } = fixture;
    await expect(sandboxOf().wrap(fixture.request({ writable: [repo.root] }), 'true', [])).rejects.toThrow(
      /would make the repository's \.git .* writable/,
    );
    await expect(
      sandboxOf().wrap(fixture.request({ writable: [join(repo.root, '.git', 'hooks')] }), 'true', []),
    ).rejects.toThrow(/\.git/);
    await expect(
      sandboxOf().wrap(fixture.request({ writable: [join(fixture.base, 'missing')] }), 'true', []),
    ).rejects.toThrow(/writable .*missing does not exist/);
    const inside = join(fixture.worktreeA, 'git-state');
    await expect(
      sandboxOf().wrap(
        fixture.request({ gitWorktree: { worktree: fixture.worktreeA, gitStateDir: inside } }),
        'true',
        [],
      ),
    ).rejects.toThrow(/gitStateDir .* is inside the worktree/);
  });

  it("mode 'off' returns the command as it is, with the request's environment only", async () => {
    const command = await createSandbox({ ...fixture.settings, mode: 'off' }).wrap(fixture.request(), 'git', [
      'status',
    ]);
    expect({ file: command.file, args: command.args, env: command.env }).toEqual({
      file: 'git',
      args: ['status'],
      env: { PATH: TEST_PATH, LANG: 'C.UTF-8' },
    });
  });
});

/** Pids of processes (outside the sandbox's view) whose environment holds `variable`. */
function processesWith(variable: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(variable))
        pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

async function waitFor(condition: () => boolean, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Every file under `dir` with a hash of its content (or symlink target). */
async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const content = entry.isSymbolicLink() ? await readlink(path) : await readFile(path);
        const mode = (await lstat(path)).mode;
        files[relative(dir, path)] = `${mode}:${createHash('sha256').update(content).digest('hex')}`;
      }
    }
  };
  await walk(dir);
  return files;
}
