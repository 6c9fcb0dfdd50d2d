import type { AgentResult, AgentRole } from './agent-result.ts';
import type { WorkItemMode } from './work-item.ts';

/**
 * What a runtime keeps so the same session can continue once a human answers: plain data, recorded in
 * SQLite while the item waits, handed back to the runtime that made it.
 */
export interface KeptSession {
  /** The adapter's runtime name (`claude`, `scripted`, `cli:<preset>`…): only that runtime can resume it. */
  runtime: string;
  /** The runtime's own session id (the SDK session, a CLI tool's thread); null when it cannot resume. */
  agentSessionID: string | null;
  /** The worktree the agent worked in, kept as it was; null for runs without one. */
  worktree: { branchName: string; path: string; baseCommit: string } | null;
  /** The run's private state directory (e.g. the SDK's config dir holding the conversation); kept too. */
  stateDir: string | null;
}

/**
 * A run that stopped to ask a human instead of finishing (any role). The existing results are unchanged:
 * a runtime's result is either the role's AgentResult or this.
 */
export interface AgentQuestions {
  kind: 'questions';
  /** The role that asks. */
  askedBy: AgentRole;
  /**
   * Never set: `outcome.role === 'implementor'` then narrows an AgentRunOutcome to the role's result, as
   * it narrowed an AgentResult before questions existed.
   */
  role?: never;
  questions: string[];
  session: KeptSession;
}

export type AgentRunOutcome = AgentResult | AgentQuestions;

export function isAgentQuestions(outcome: unknown): outcome is AgentQuestions {
  return (
    typeof outcome === 'object' &&
    outcome !== null &&
    (outcome as { kind?: unknown }).kind === 'questions' &&
    Array.isArray((outcome as { questions?: unknown }).questions)
  );
}

/** The agent roles that work on a work item of their own (the planner's questions get an item made for them). */
export type ItemAgentRole = Exclude<AgentRole, 'planner'>;

/**
 * A work item whose agent asked questions: what resuming its session needs, kept across restarts. For a
 * planner the item is the `questions` item the engine opened for them, and `specSHAs` what it was planning.
 */
export interface WaitingSession {
  workItemID: string;
  role: AgentRole;
  /** The engine's id of the run that asked. */
  sessionID: string;
  /** 1 for the item/role's first session, 2 for the first resume, … */
  sessionNumber: number;
  /** The reviewer's revision; null for an implementor. */
  revisionID: string | null;
  questions: string[];
  session: KeptSession;
  /** Epoch milliseconds. */
  askedAt: number;
  /** Set once a human answered (the resume is being started); null while waiting. */
  answers: string | null;
  /**
   * A planner only: path → blob SHA of the specs it was given. The resume plans exactly these (and records
   * them as planned); a change to the approved specs meanwhile supersedes the questions.
   */
  specSHAs?: Record<string, string>;
  /**
   * An implementor that asked in a read-only mode (issue #29: `investigate`, `refine` — an automatic
   * refinement's item has no label saying so): its resume runs in the same mode. Absent: implement.
   */
  mode?: WorkItemMode;
}

/** Marks Flotilla's questions comment on an item, so replies after it can be told from it. */
export const QUESTIONS_COMMENT_MARKER = '<!-- flotilla:questions -->';
/** Marks an answer Flotilla posted for a human (from `flotilla answer` or the dashboard). */
export const ANSWER_COMMENT_MARKER = '<!-- flotilla:answer -->';

/** The comment asking a human: numbered questions and how to answer. */
export function buildQuestionsComment(input: {
  role: AgentRole;
  workItemID: string;
  questions: readonly string[];
}): string {
  const list = input.questions.map((question, index) => `${index + 1}. ${question}`).join('\n');
  return (
    `${QUESTIONS_COMMENT_MARKER}\n**The ${input.role} has questions** and waits for your answers:\n\n${list}\n\n` +
    `Answer with \`flotilla answer ${input.workItemID}\`, from the dashboard, or by replying to this comment; ` +
    'the same session then resumes with your answers.'
  );
}

/** The comment that records a human's answers on the item. */
export function buildAnswerComment(answers: string): string {
  return `${ANSWER_COMMENT_MARKER}\n${answers}`;
}

/**
 * The answers in the comments after the latest questions comment: replies written on the tracker, or the
 * ones Flotilla posted for a human. Flotilla's other comments (marked `<!-- flotilla:`) are not answers.
 * Null when nobody answered yet.
 */
export function findAnswers(comments: readonly { body: string }[]): string | null {
  let start = -1;
  comments.forEach((comment, index) => {
    if (comment.body.includes(QUESTIONS_COMMENT_MARKER)) start = index;
  });
  if (start < 0) return null;
  const replies = comments
    .slice(start + 1)
    .map((comment) =>
      comment.body.startsWith(ANSWER_COMMENT_MARKER)
        ? comment.body.slice(ANSWER_COMMENT_MARKER.length)
        : comment.body.includes('<!-- flotilla:')
          ? ''
          : comment.body,
    )
    .map((text) => text.trim())
    .filter((text) => text !== '');
  return replies.length > 0 ? replies.join('\n\n') : null;
}

/** The user message that resumes a session with a human's answers. */
export function buildAnswersPrompt(questions: readonly string[], answers: string): string {
  const list = questions.map((question, index) => `${index + 1}. ${question}`).join('\n');
  return (
    `A human answered your questions.\n\nYour questions:\n${list}\n\nTheir answers:\n${answers.trim()}\n\n` +
    'Continue the task where you stopped, and finish it as instructed at the start.'
  );
}

/**
 * The first prompt of a new session that continues one which asked a human, for a runtime that cannot
 * resume it: the role's full context, then the questions and the answers.
 */
export function buildRestartedPrompt(context: string, questions: readonly string[], answers: string): string {
  return `${context}\n\n## Your earlier session asked a human\n\n${buildAnswersPrompt(questions, answers)}`;
}
