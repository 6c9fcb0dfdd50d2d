import { fileURLToPath } from 'node:url';
import { createSandbox, type SandboxDeps } from '../../src/sandbox/create-sandbox.ts';
import type { Sandbox, SandboxSettings } from '../../src/sandbox/sandbox-types.ts';

/**
 * Flotilla's own checkout. The control plane adds its package root to `sandbox.allowRead`, because the
 * sandbox's private /tmp hides a checkout under /tmp (a CI clone) and with it the agent CLIs and scripts that
 * live there; the test sandboxes do the same.
 */
export const FLOTILLA_CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/** The sandbox settings the control plane uses by default (on, nothing widened), with Flotilla's checkout readable. */
export const TEST_SANDBOX_SETTINGS: SandboxSettings = {
  mode: 'on',
  networkAllow: [],
  passEnv: [],
  allowRead: [FLOTILLA_CHECKOUT],
  denyRead: [],
};

/** The OS sandbox as the control plane makes it by default (on, nothing widened): runtimes under test use it. */
export function createTestSandbox(deps?: SandboxDeps): Sandbox {
  return createSandbox(TEST_SANDBOX_SETTINGS, deps);
}
