import { query } from '@anthropic-ai/claude-agent-sdk';
import type { AgentRole } from '../../domain/index.ts';
import {
  buildModeOutputOrQuestionsJsonSchema,
  buildOutputOrQuestionsJsonSchema,
  type RunLimits,
} from '../../engine/runtime-contract/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { SandboxRefusals } from '../shared/create-sandbox-refusals.ts';
import { buildClaudeHooks } from './build-claude-hooks.ts';
import { ASK_HUMAN_TOOL, type AskHumanTool, withAskHumanTool } from './create-ask-human-tool.ts';
import { createSandboxedSpawn } from './create-sandboxed-spawn.ts';
import type { SessionInput } from './create-session-input.ts';
import type { ProvisionedClaudeRun } from './provision-claude-run.ts';

/**
 * Starts one SDK session (round) of a run: round 0 under the engine's id (or, on a resume, the asking
 * run's), later rounds resume it. Everything the session is given is fixed per run.
 */
export function createClaudeSessionStarter(params: {
  role: AgentRole;
  sessionID: string;
  /** The SDK session: the engine's id for a new run, the asking run's for a resume. */
  sdkSessionID: string;
  cwd: string;
  maxBudgetUsd: number | undefined;
  /** The run's limits (`limits.<mode>`): a configured maxTurns over the agent definition's, a default under it. */
  limits: RunLimits | undefined;
  provisioned: ProvisionedClaudeRun;
  askHuman: AskHumanTool;
  abortController: AbortController;
  refusals: SandboxRefusals;
  logger: Logger;
}): (input: SessionInput, resumes: boolean) => ReturnType<typeof query> {
  const { role, sessionID, sdkSessionID, askHuman, abortController, logger } = params;
  const { loaded, agentEnv, executablePath, sandboxed, pathGuardHook, bashHook, mode } = params.provisioned;
  const maxTurns = params.limits?.maxTurns ?? loaded.maxTurns ?? params.limits?.defaultMaxTurns;
  // A mode's report (investigate, refine) or the role's result; either, or questions for a human.
  const schema =
    mode !== undefined ? buildModeOutputOrQuestionsJsonSchema(mode) : buildOutputOrQuestionsJsonSchema(role);
  const definition = withAskHumanTool(loaded.definition);
  const stderr = (data: string) => logger.debug('claude stderr', { sessionID, data: data.slice(0, 2000) });
  // Round 0 starts the session under the engine's id; fix rounds resume it (the CLI reloads the
  // conversation from its per-run config dir, so the session must be persisted there while validating).
  // Streaming input (create-session-input.ts): other agents' questions are pushed into the live session.
  return (input: SessionInput, resumes: boolean) =>
    query({
      prompt: input.messages,
      options: {
        agent: role,
        agents: { [role]: definition },
        mcpServers: askHuman.mcpServers,
        ...(maxTurns !== undefined && { maxTurns }),
        cwd: params.cwd,
        // The role's result, or `outcome: 'questions'` to stop and ask a human.
        outputFormat: { type: 'json_schema', schema },
        settingSources: [],
        // Every tool but the structured output passes the guards, in one callback (see build-claude-hooks.ts).
        hooks: buildClaudeHooks({
          bashValidator: bashHook,
          pathGuard: pathGuardHook,
          askHumanTool: ASK_HUMAN_TOOL,
          refuseSubagentAsking: askHuman.refuseSubagents,
          stopAfterAsking: askHuman.stopAfterAsking,
        }),
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        abortController,
        ...(resumes ? { resume: sdkSessionID } : { sessionId: sdkSessionID }),
        // Kept in the per-run config dir: a fix round or an answer to the agent's questions resumes it
        // (whether the agent will ask is not known up front).
        persistSession: true,
        // Stream events carry each request's final token counts (message_delta): the live usage signal.
        includePartialMessages: true,
        ...(params.maxBudgetUsd !== undefined && { maxBudgetUsd: params.maxBudgetUsd }),
        env: agentEnv,
        // Null (no platform package): the SDK looks for itself, and says what is missing.
        ...(executablePath !== null && { pathToClaudeCodeExecutable: executablePath }),
        ...(sandboxed !== null &&
          executablePath !== null && {
            spawnClaudeCodeProcess: createSandboxedSpawn(sandboxed, executablePath, (data) => {
              for (const line of data.split('\n')) params.refusals.line(line);
              stderr(data);
            }),
          }),
        stderr,
      },
    });
}
