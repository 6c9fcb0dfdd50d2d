import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { hasErrorCode } from '../shared/has-error-code.ts';

export interface PortAllocatorOptions {
  /**
   * Where allocations are recorded, one file per port (`<port>`, holding its owner): `.flotilla/ports/`.
   * Created with `wx`, so two processes (or a restart) never hand out the same port.
   */
  dir: string;
  /** Ports per block (config `worktree.ports`); 0: no ports. */
  count: number;
  /** First port looked at. Default 20000. */
  firstPort?: number;
  /** Last port that may be handed out. Default 60999 (below Linux's usual ephemeral range). */
  lastPort?: number;
}

export interface PortAllocator {
  /**
   * A block of `count` consecutive ports for `owner` (a worktree path), each recorded and free on the
   * machine (bound on 127.0.0.1 and released); [] when `count` is 0. Rejects when the range is exhausted.
   */
  allocate(owner: string): Promise<number[]>;
  /** Releases every port recorded for `owner`. Never throws. */
  release(owner: string): Promise<void>;
  /** Releases the ports of every owner not in `keep` (start-up, after a crash); returns the ports released. */
  reap(keep: readonly string[]): Promise<number[]>;
}

const DEFAULT_FIRST_PORT = 20_000;
const DEFAULT_LAST_PORT = 60_999;

/** Whether nothing listens on the port on 127.0.0.1 (nor on every address): binding it is the test. */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Per-worktree port blocks (`FLOTILLA_PORT`…), recorded under `.flotilla/ports/` across restarts. */
export function createPortAllocator(options: PortAllocatorOptions): PortAllocator {
  const { dir, count } = options;
  const firstPort = options.firstPort ?? DEFAULT_FIRST_PORT;
  const lastPort = options.lastPort ?? DEFAULT_LAST_PORT;
  /** Where the next search starts: blocks released recently are not handed out again at once. */
  let cursor = firstPort;

  async function claim(port: number, owner: string): Promise<boolean> {
    try {
      const handle = await open(join(dir, String(port)), 'wx');
      await handle.writeFile(`${owner}\n`);
      await handle.close();
      return true;
    } catch (error) {
      if (hasErrorCode(error, 'EEXIST')) return false;
      throw error;
    }
  }

  async function records(): Promise<Array<{ port: number; owner: string }>> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT')) return [];
      throw error;
    }
    const found: Array<{ port: number; owner: string }> = [];
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      const owner = await readFile(join(dir, name), 'utf8').then(
        (text) => text.trim(),
        () => null,
      );
      if (owner !== null) found.push({ port: Number(name), owner });
    }
    return found;
  }

  async function unclaim(ports: readonly number[]): Promise<void> {
    await Promise.all(ports.map((port) => rm(join(dir, String(port)), { force: true }).catch(() => {})));
  }

  return {
    async allocate(owner) {
      if (count === 0) return [];
      await mkdir(dir, { recursive: true });
      const span = lastPort - firstPort + 1;
      const blocks = Math.floor(span / count);
      const startBlock = Math.floor((cursor - firstPort) / count) % blocks;
      for (let tried = 0; tried < blocks; tried += 1) {
        const start = firstPort + ((startBlock + tried) % blocks) * count;
        const claimed: number[] = [];
        let ok = true;
        for (let port = start; port < start + count; port += 1) {
          if (!(await claim(port, owner))) {
            ok = false;
            break;
          }
          claimed.push(port);
          if (!(await isPortFree(port))) {
            ok = false;
            break;
          }
        }
        if (ok) {
          cursor = start + count;
          return claimed;
        }
        await unclaim(claimed);
      }
      throw new Error(`no block of ${count} free ports left between ${firstPort} and ${lastPort} (${dir})`);
    },

    async release(owner) {
      const mine = (await records().catch(() => [])).filter((record) => record.owner === owner);
      await unclaim(mine.map((record) => record.port));
    },

    async reap(keep) {
      const kept = new Set(keep);
      const stale = (await records()).filter((record) => !kept.has(record.owner));
      await unclaim(stale.map((record) => record.port));
      return stale.map((record) => record.port);
    },
  };
}
