/**
 * Nothing started under a run outlives it: every process carrying the run's own CLAUDE_CONFIG_DIR (the CLI,
 * the tools it runs in sessions of their own, what they started) is ended when the run ends, also when the
 * CLI did not end it — as when it is killed before it can end its tools. The test starts such a process
 * itself while the run is under way, one the CLI knows nothing of.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adapterFor,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

describe('Claude adapter: processes left under the run', () => {
  it('a process carrying the run’s config dir ends with the run; one of another run’s does not', async () => {
    const adapter = await adapterFor({
      name: 'leftover',
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              delayMs: 1500,
              structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'nothing' },
            },
          ],
        },
      ],
    });
    const sessionID = crypto.randomUUID();
    const handle = await adapter.startAgent({ ...implementorParams, sessionID });
    const configDirOf = (id: string) => join(fixture.stateDir, 'runs', id, 'config');
    const start = (configDir: string) =>
      spawn('sleep', ['600'], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
        detached: true,
        stdio: 'ignore',
      });
    const ours = start(configDirOf(sessionID));
    const another = start(configDirOf('another-run'));
    try {
      await Promise.all([once(ours, 'spawn'), once(another, 'spawn')]);
      const ended = once(ours, 'exit');
      expect(await handle.result).toMatchObject({ outcome: 'blocked' });
      expect(await ended).toEqual([null, 'SIGKILL']);
      expect(another.exitCode).toBeNull();
      expect(another.signalCode).toBeNull();
    } finally {
      ours.kill('SIGKILL');
      another.kill('SIGKILL');
    }
  }, 90_000);
});
