import { createSandbox } from '../../src/sandbox/create-sandbox.ts';
import type { Sandbox } from '../../src/sandbox/sandbox-types.ts';

/** The OS sandbox as the control plane makes it by default (on, nothing widened): runtimes under test use it. */
export function createTestSandbox(): Sandbox {
  return createSandbox({ mode: 'on', networkAllow: [], passEnv: [], allowRead: [], denyRead: [] });
}
