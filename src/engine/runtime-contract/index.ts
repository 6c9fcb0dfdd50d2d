/**
 * The way in for runtimes (src/runtimes/): what a runtime is given and returns. Runtimes import this and
 * no other engine file.
 */
export {
  type AgentConversationPort,
  CONVERSATION_TOOL_DESCRIPTIONS,
  CONVERSATION_TOOL_INPUTS,
  CONVERSATION_TOOL_NAMES,
  type ConversationBrokerLink,
  type ConversationToolName,
  formatAskReply,
  formatIncomingQuestion,
  parseAgentAnswer,
  parseAgentAsk,
} from './agent-conversation-schema.ts';
export {
  AGENT_TOOL_DESCRIPTIONS,
  AGENT_TOOL_INPUTS,
  AGENT_TOOL_NAMES,
  type AgentNoteParse,
  type AgentToolName,
  parseAgentToolCall,
  toolOfNote,
} from './agent-note-schema.ts';
export {
  type AgentOutputValidation,
  buildOutputJsonSchema,
  buildOutputOrQuestionsJsonSchema,
  type JsonSchemaObject,
  validateAgentOutput,
  validateAgentOutputOrQuestions,
} from './agent-output-schemas.ts';
export {
  classifyLimitMessage,
  type LimitClassification,
  parseResetTime,
} from './classify-limit-message.ts';
export {
  buildModeOutputJsonSchema,
  buildModeOutputOrQuestionsJsonSchema,
  findModeReportSchemaError,
  findPlannerResultSchemaError,
  InvestigationOutputSchema,
  proposalEditSchema,
  RefinementOutputSchema,
  validateModeOutputOrQuestions,
} from './mode-output-schemas.ts';
export {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentRunRequest,
  type AgentStartParams,
  failureReasonOf,
  type ImplementorStartParams,
  type LiveUsageReport,
  type PhaseListener,
  type PhaseTiming,
  type PlannerStartParams,
  type ResumeParams,
  type ReviewerStartParams,
  type RunLimits,
  type RuntimeAdapter,
  type RuntimeAdapterConfig,
  type RuntimeAdapters,
  type RuntimeAvailability,
  type RuntimeChoices,
  resetsAtOf,
} from './runtime-contract.ts';
