import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasErrorCode } from '../../shared/has-error-code.ts';

/**
 * Whether a `flotilla run` holds this repository's `run.lock` (src/app/acquire-run-lock.ts) and its
 * process is alive. A lock left by a killed process reads as not running. Used to tell an agent run that is
 * really active from a record a killed control plane left `running` (the next start records it as failed).
 */
export function isControlPlaneRunning(stateDir: string): boolean {
  let pid: unknown;
  try {
    pid = (JSON.parse(readFileSync(join(stateDir, 'run.lock'), 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return false;
  }
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return hasErrorCode(error, 'EPERM');
  }
}
