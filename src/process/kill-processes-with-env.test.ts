import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { killProcessesWithEnv } from './kill-processes-with-env.ts';

describe('killProcessesWithEnv', () => {
  it('kills the processes carrying the marker, also one in a session of its own, and no other', async () => {
    const marker = `FLOTILLA_TEST_MARK=${randomUUID()}`;
    const [name, value] = marker.split('=') as [string, string];
    const start = (env: NodeJS.ProcessEnv) =>
      spawn('sleep', ['30'], { env: { ...process.env, ...env }, detached: true, stdio: 'ignore' });
    const marked = start({ [name]: value });
    const other = start({ [name]: `${value}-other` });
    try {
      await Promise.all([once(marked, 'spawn'), once(other, 'spawn')]);
      const exited = once(marked, 'exit');
      expect(killProcessesWithEnv((variable) => variable === marker)).toEqual([marked.pid]);
      expect(await exited).toEqual([null, 'SIGKILL']);
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
      expect(killProcessesWithEnv((variable) => variable === marker)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
      marked.kill('SIGKILL');
    }
  });

  it('finds nothing where there is no /proc', () => {
    expect(killProcessesWithEnv(() => true, { procDir: '/no/such/proc' })).toEqual([]);
  });
});
