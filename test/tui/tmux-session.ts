/**
 * A command on a real terminal: a detached tmux session on a private server (`tmux -L <socket>`, no user
 * configuration), so tests never touch a user's tmux. The screen is read with capture-pane and keys are
 * typed with send-keys.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { messageOf } from '../../src/shared/message-of.ts';
import { isProcessRunning } from '../support/shared/is-process-running.ts';

const run = promisify(execFile);

export interface TmuxSession {
  /** The private server's socket name (`tmux -L <socket>`). */
  socket: string;
  /** The visible screen, one line per row (trailing blanks trimmed). */
  capture(): Promise<string>;
  /** Types tmux key names or literal characters (`d`, `y`, `Down`, `Escape`). */
  sendKeys(...keys: string[]): Promise<void>;
  /**
   * Polls the screen every 200 ms until `check` holds; throws after `timeoutMs` with the last screen and
   * whatever `context` adds.
   */
  waitForScreen(
    check: (screen: string) => boolean,
    timeoutMs: number,
    what: string,
    context?: () => string,
  ): Promise<string>;
  /**
   * Kills the private server, then waits (up to 15 s) for the processes the command started to end —
   * SIGHUP makes flotilla shut down gracefully — and SIGKILLs those left. Safe to call twice.
   */
  kill(): Promise<void>;
}

export interface TmuxSessionOptions {
  /** argv of the command; it runs in `sh -c '<command>; echo EXIT:$?; sleep 120'` so the exit code stays on screen. */
  command: string[];
  cwd: string;
  /** Set for the command (on top of the environment this process has, minus TMUX). */
  env: Record<string, string>;
  columns?: number;
  rows?: number;
}

const SESSION = 'flotilla';

export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Throws (the test fails, it does not skip) when tmux is not installed. */
export async function createTmuxSession(options: TmuxSessionOptions): Promise<TmuxSession> {
  const socket = `flotilla-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const { TMUX: _tmux, TMUX_PANE: _pane, ...baseEnv } = process.env;
  const tmux = async (args: string[]) =>
    (await run('tmux', ['-L', socket, '-f', '/dev/null', ...args], { env: baseEnv })).stdout;

  const envWords = Object.entries(options.env).map(([key, value]) => shellQuote(`${key}=${value}`));
  const inner = `env ${envWords.join(' ')} ${options.command.map(shellQuote).join(' ')}; echo EXIT:$?; sleep 120`;
  try {
    await tmux([
      'new-session',
      '-d',
      '-s',
      SESSION,
      '-x',
      String(options.columns ?? 120),
      '-y',
      String(options.rows ?? 40),
      '-c',
      options.cwd,
      `sh -c ${shellQuote(inner)}`,
    ]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new Error(
        'tmux is not installed: this test needs it (apt-get install tmux; .ci/run installs it)',
      );
    }
    throw error;
  }

  const [panePIDText, socketPath] = (
    await tmux(['display-message', '-p', '-t', SESSION, '#{pane_pid}\t#{socket_path}'])
  )
    .trim()
    .split('\t');
  const panePID = Number(panePIDText);
  let killed = false;
  let lastScreen = '';
  const capture = async () => {
    lastScreen = await tmux(['capture-pane', '-p', '-t', SESSION]);
    return lastScreen;
  };
  return {
    socket,
    capture,
    async sendKeys(...keys) {
      await tmux(['send-keys', '-t', SESSION, ...keys]);
    },
    async waitForScreen(check, timeoutMs, what, context) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let screen: string;
        try {
          screen = await capture();
        } catch (error) {
          throw new Error(
            `tmux session ended while waiting for ${what}: ${messageOf(error)}\n--- last screen ---\n${lastScreen}\n${context?.() ?? ''}`,
          );
        }
        if (check(screen)) return screen;
        if (Date.now() > deadline) {
          throw new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}\n--- last screen ---\n${screen}\n${context?.() ?? ''}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async kill() {
      if (killed) return;
      killed = true;
      const started = [panePID, ...descendantsOf(panePID)];
      await tmux(['kill-server']).catch(() => undefined);
      // The server leaves its socket file behind.
      if (socketPath) rmSync(socketPath, { force: true });
      const deadline = Date.now() + 15_000;
      while (started.some(isProcessRunning) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const pid of started.filter(isProcessRunning)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

function parentOf(pid: string): number | null {
  try {
    // The command name (field 2) is in parentheses and may contain spaces; the ppid follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Every process below `root` right now (children, grandchildren…). */
export function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent !== null) parents.set(Number(entry), parent);
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const current = frontier.pop() as number;
    for (const [pid, parent] of parents) {
      if (parent === current) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}
