import type { EngineEvent, ResumeWithAnswers } from '../../domain/index.ts';
import type { AgentRunRequest, ResumeParams } from '../runtime-contract/runtime-contract.ts';
import type { AdmittedRun } from '../scheduler/create-scheduler.ts';
import type { RunModeOptions } from './build-run-mode-options.ts';

/**
 * The *Requested event and the run request for an admitted run (one place decides branch names); context
 * assembly adds the prompt before the runtime gets it.
 */
export function buildRunRequest(
  run: AdmittedRun,
  branchPrefix: string,
  account?: string,
  options?: RunModeOptions,
): { event: EngineEvent; request: AgentRunRequest } {
  const { event, request } = withModeOptions(buildWithoutAccount(run, branchPrefix), options);
  if (account === undefined) return { event, request };
  return { event: { ...event, account } as EngineEvent, request: { ...request, account } };
}

/**
 * The mode, limits and model (issue #29): limits go to every run; an implementor's mode and chosen model are
 * recorded with its run (ImplementorRequested) and given to its runtime.
 */
function withModeOptions(
  built: { event: EngineEvent; request: AgentRunRequest },
  options: RunModeOptions | undefined,
): { event: EngineEvent; request: AgentRunRequest } {
  if (options === undefined) return built;
  const { event } = built;
  const request = { ...built.request, limits: options.limits };
  if (event.type !== 'implementorRequested' || request.role !== 'implementor') return { event, request };
  const picked = {
    ...(options.mode !== undefined && { mode: options.mode }),
    ...(options.model !== undefined && { model: options.model }),
  };
  return {
    event: {
      ...event,
      ...picked,
      ...(options.modelReason !== undefined && { modelReason: options.modelReason }),
    },
    request: { ...request, ...picked },
  };
}

function buildWithoutAccount(
  run: AdmittedRun,
  branchPrefix: string,
): { event: EngineEvent; request: AgentRunRequest } {
  const { sessionID, command, at } = run;
  switch (command.type) {
    case 'requestPlannerRun':
      return {
        event: {
          type: 'plannerRequested',
          sessionID,
          specPaths: command.specPaths,
          specSHAs: command.specSHAs,
          at,
          ...resumedSessionNumber(command.resume),
          ...(command.resume !== undefined && { questionsItemID: command.resume.waiting.workItemID }),
          ...(command.revision !== undefined && { revises: command.revision.proposalID }),
        },
        request: {
          role: 'planner',
          sessionID,
          specPaths: command.specPaths,
          specSHAs: command.specSHAs,
          ...buildResumeParams(command.resume),
          ...(command.revision !== undefined && { revision: command.revision }),
        },
      };
    case 'requestImplementorRun': {
      const branchName = `${branchPrefix}${command.workItemID}`;
      return {
        event: {
          type: 'implementorRequested',
          sessionID,
          workItemID: command.workItemID,
          branchName,
          at,
          ...resumedSessionNumber(command.resume),
          ...(run.files !== undefined && { estimatedFiles: run.files }),
        },
        request: {
          role: 'implementor',
          sessionID,
          workItemID: command.workItemID,
          branchName,
          ...buildResumeParams(command.resume),
        },
      };
    }
    case 'requestReviewerRun':
      return {
        event: {
          type: 'reviewerRequested',
          sessionID,
          workItemID: command.workItemID,
          revisionID: command.revisionID,
          at,
          ...resumedSessionNumber(command.resume),
        },
        request: {
          role: 'reviewer',
          sessionID,
          workItemID: command.workItemID,
          revisionID: command.revisionID,
          ...buildResumeParams(command.resume),
        },
      };
  }
}

function resumedSessionNumber(resume: ResumeWithAnswers | undefined): { sessionNumber?: number } {
  return resume === undefined ? {} : { sessionNumber: resume.waiting.sessionNumber + 1 };
}

/** A resumed run continues the waiting session with the answers (runtime-contract's ResumeParams). */
function buildResumeParams(resume: ResumeWithAnswers | undefined): { resume?: ResumeParams } {
  if (resume === undefined) return {};
  return {
    resume: {
      session: resume.waiting.session,
      questions: resume.waiting.questions,
      answers: resume.answers,
      sessionNumber: resume.waiting.sessionNumber + 1,
    },
  };
}
