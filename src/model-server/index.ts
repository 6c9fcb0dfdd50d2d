export { applyTemplate } from './apply-template.ts';
export { assembleMessage } from './assemble-message.ts';
export type { AssistantMessage } from './build-assistant-message.ts';
export {
  buildCodexServerConfig,
  CODEX_SCRIPTED_KEY_VAR,
  CODEX_SCRIPTED_PROVIDER,
  type CodexServerConfig,
  type CodexServerConfigInput,
} from './build-codex-server-config.ts';
export { buildModelServerEnv, type ModelServerEnvInput } from './build-model-server-env.ts';
export type { ModelServerReport } from './build-report.ts';
export type { ResponseObject, ResponseOutputItem, ResponseUsage } from './build-response-object.ts';
export type { SseEvent } from './build-sse-events.ts';
export { createModelServer, type ModelServer, type ModelServerOptions } from './create-model-server.ts';
export { loadScenarioFile } from './load-scenario-file.ts';
export { parseScenario, ScenarioError } from './parse-scenario.ts';
export { parseSse } from './parse-sse.ts';
export type { RecordedRequest, RequestKind } from './recorded-request.ts';
export type { RequestView, ToolResultView } from './request-view.ts';
export { buildResponsesRequestView } from './responses-request-view.ts';
export type {
  ContentBlockSpec,
  ErrorSpec,
  ExpectationsSpec,
  RouteMatchSpec,
  ScenarioSpec,
  StepSpec,
  TextMatcherSpec,
} from './scenario-schema.ts';
export type { Route, Scenario, Step, StepReply } from './scenario-types.ts';
