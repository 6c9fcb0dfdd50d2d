import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isProcessRunning } from './is-process-running.ts';

describe('isProcessRunning', () => {
  it('is true for a running process, false once it exited (zombie or reaped) and for no such pid', async () => {
    expect(isProcessRunning(process.pid)).toBe(true);
    const child = spawn('sleep', ['30']);
    const pid = child.pid ?? 0;
    expect(isProcessRunning(pid)).toBe(true);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(isProcessRunning(pid)).toBe(false);
    expect(isProcessRunning(2 ** 22 + 1)).toBe(false);
  });
});
