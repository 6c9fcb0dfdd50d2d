export { buildHandlerConfig } from './build-handler-config.ts';
export { buildSampleEventList, buildSampleEvents, type SampleEvents } from './build-sample-events.ts';
export { buildSampleState } from './build-sample-state.ts';
export { runHandlerAfterUpdate } from './run-handler-after-update.ts';
export { SAMPLE_IDS } from './sample-ids.ts';
