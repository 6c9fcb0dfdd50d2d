import { SCRIPTED_RUNTIME } from '../../domain/index.ts';
import type { RuntimeDescriptor } from '../shared/runtime-descriptor.ts';

/**
 * `"scripted"` in flotilla.config.json: the role is answered by the configured `scriptedScenario` on a
 * scripted model server (127.0.0.1), played by the runtime `scriptedRuntime` names through its
 * `createScripted` — dry runs, demos, CI. Its runs are recorded as `scripted` (made-up costs).
 */
export const scriptedRuntime: RuntimeDescriptor<typeof SCRIPTED_RUNTIME> = {
  name: SCRIPTED_RUNTIME,
  summary: 'a scripted model server answering from a scenario file (no model, no key)',
  config: { kind: 'name' },
  // Its runs live in the directories of the runtime that plays them.
  stateDir: null,
  orphanMarkerVariables: [],
  scripted: true,
  takesAccounts: true,
  // Its scenario server runs only when a role or a named runtime is scripted: only then may a label choose it.
  labelChoices: ({ roles, named }) =>
    roles.length + named.length > 0 ? [{ name: SCRIPTED_RUNTIME, settings: SCRIPTED_RUNTIME }] : [],
  create: () => {
    throw new Error('the scripted runtime is played by the scriptedRuntime against its scenario server');
  },
};
