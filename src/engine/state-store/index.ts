export { applyStateUpdate, type StateUpdate } from './apply-state-update.ts';
export { buildDispatchKey } from './dispatch-key.ts';
export * from './engine-state.ts';
export * from './selectors/index.ts';
