import { buildInvestigationMarkdown, buildRefinedBody, buildRefinedLabels } from './agent-mode.ts';
import type { ModeReport, PlannerResult } from './agent-result.ts';
import type { Proposal, ProposalKind } from './proposal.ts';

/** Marks Flotilla's comment that posts a proposal; decisions are read from the replies after the latest one. */
export const PROPOSAL_COMMENT_MARKER = '<!-- flotilla:proposal -->';
/** Opens the hidden machine-readable block of a proposal comment (closed by `-->`). */
const PROPOSAL_DATA_OPENER = '<!-- flotilla:proposal-data';
/** Marks a decision Flotilla posted for a human (`flotilla proposals accept|reject`). */
export const PROPOSAL_DECISION_MARKER = '<!-- flotilla:proposal-decision -->';
/** Marks feedback Flotilla posted for a human (`flotilla proposals comment`): the rest is their text. */
export const PROPOSAL_FEEDBACK_MARKER = '<!-- flotilla:proposal-feedback -->';

/** A human's answer to a proposal, as read from the tracker. */
export interface ProposalDecision {
  decision: 'accept' | 'reject';
  /** A rejection's reason ('' when none was given); null for an acceptance. */
  reason: string | null;
  author: string;
  /** An acceptance of an edited version (`flotilla proposals accept --edit`); validated when applied. */
  edited?: ProposalEdit;
  /**
   * A rejection made of feedback alone (issue #29: a human "comments on a plan"): plain comments, no
   * `/reject`. The reason is their text; it is revised exactly as a reasoned rejection is.
   */
  feedback?: true;
}

/** What `accept --edit` replaces: a plan's result, or an investigation's or refinement's report. */
export interface ProposalEdit {
  result?: PlannerResult;
  report?: ModeReport;
}

/** Opens the hidden block of an edited acceptance (closed by `-->`). */
const PROPOSAL_EDIT_OPENER = '<!-- flotilla:proposal-edit';

/** What the hidden block carries: enough to rebuild the proposal from the tracker alone. */
interface ProposalData {
  id: string;
  kind: ProposalKind;
  /** An investigation's or refinement's item and report. */
  subjectID?: string | null;
  report?: ModeReport | null;
  specSHAs: Record<string, string>;
  revises: string | null;
  result: PlannerResult;
}

/**
 * The comment that posts a proposal: a readable list of what applying it would do, how to decide, and a
 * hidden block with the plan as JSON (`>` escaped as `\u003e`, so no text can end the HTML comment early).
 */
export function buildProposalComment(proposal: Proposal): string {
  if (proposal.report != null) return buildModeProposalComment(proposal, proposal.report);
  const { result } = proposal;
  const lines = [
    PROPOSAL_COMMENT_MARKER,
    `**The planner proposes this plan** for ${Object.keys(proposal.specSHAs)
      .map((path) => `\`${path}\``)
      .join(
        ', ',
      )}${proposal.revises === null ? '' : ` (a revision of the plan rejected on #${proposal.revises})`}:`,
    '',
  ];
  if (result.create.length > 0) {
    lines.push(`Create ${result.create.length} work item(s):`);
    result.create.forEach((create, index) => {
      const details = [
        ...(create.labels.length > 0 ? [`labels ${create.labels.join(', ')}`] : []),
        ...(create.blockedBy.length > 0 ? [`blocked by ${create.blockedBy.join(', ')}`] : []),
      ];
      lines.push(
        `${index + 1}. **${oneLine(create.title)}** (\`${create.tempID}\`)${details.length > 0 ? ` — ${details.join('; ')}` : ''}`,
      );
      const summary = oneLine(create.body);
      if (summary !== '') lines.push(`   ${summary.length > 200 ? `${summary.slice(0, 199)}…` : summary}`);
    });
  }
  if (result.close.length > 0) lines.push(`Close: ${result.close.map((id) => `#${id}`).join(', ')}`);
  for (const update of result.update) {
    const fields = [...(update.body !== null ? ['body'] : []), ...(update.labels !== null ? ['labels'] : [])];
    lines.push(`Update #${update.workItemID}: ${fields.join(', ') || 'nothing'}`);
  }
  if (result.create.length + result.close.length + result.update.length === 0)
    lines.push('No changes to the work items.');
  const data: ProposalData = {
    id: proposal.id,
    kind: proposal.kind,
    specSHAs: proposal.specSHAs,
    revises: proposal.revises,
    result,
  };
  lines.push(
    '',
    'Reply `/accept` to apply it, or `/reject <why>` — or just comment — to have the planner revise it with ' +
      `your feedback (\`flotilla proposals accept ${proposal.id}\` / \`flotilla proposals comment ${proposal.id} …\` do the same).`,
    '',
    PROPOSAL_DATA_OPENER,
    JSON.stringify(data).replaceAll('>', '\\u003e'),
    '-->',
  );
  return lines.join('\n');
}

/** An investigation's or refinement's proposal: the report (or the refined item) and the hidden block. */
function buildModeProposalComment(proposal: Proposal, report: ModeReport): string {
  const subject = proposal.subjectID ?? '?';
  const lines = [PROPOSAL_COMMENT_MARKER];
  if (report.mode === 'investigate') {
    lines.push(
      `**The investigation of #${subject} proposes ${report.fixes.length} fix item(s)** (\`approval.investigations\`):`,
      '',
      buildInvestigationMarkdown(report),
    );
  } else {
    lines.push(
      `**The refinement of #${subject} proposes this item** (\`approval.refinements\`):`,
      '',
      ...(report.title === null ? [] : [`Title: **${oneLine(report.title)}**`, '']),
      `Labels: ${buildRefinedLabels(report).join(', ')}`,
      '',
      buildRefinedBody(report),
    );
  }
  const data: ProposalData = {
    id: proposal.id,
    kind: proposal.kind,
    specSHAs: proposal.specSHAs,
    revises: proposal.revises,
    result: proposal.result,
    subjectID: proposal.subjectID ?? null,
    report,
  };
  lines.push(
    '',
    `Reply \`/accept\` to apply it, \`/reject <why>\` — or any comment on #${proposal.id} — to have it run again ` +
      'with your feedback, or `/reject` alone to send the item back to a human ' +
      `(\`flotilla proposals accept ${proposal.id}\` — with \`--edit\` to change it first —, \`reject\` or \`comment\` do the same).`,
    '',
    PROPOSAL_DATA_OPENER,
    JSON.stringify(data).replaceAll('>', '\\u003e'),
    '-->',
  );
  return lines.join('\n');
}

/** The hidden block of a proposal comment, or null when the body has none or it does not parse. */
export function parseProposalData(body: string): ProposalData | null {
  const start = body.indexOf(PROPOSAL_DATA_OPENER);
  if (start < 0) return null;
  const end = body.indexOf('-->', start);
  if (end < 0) return null;
  try {
    const parsed: unknown = JSON.parse(body.slice(start + PROPOSAL_DATA_OPENER.length, end));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const data = parsed as Partial<ProposalData>;
    if (
      typeof data.id !== 'string' ||
      !['plan', 'investigation', 'refinement'].includes(data.kind ?? '') ||
      typeof data.result !== 'object'
    )
      return null;
    return parsed as ProposalData;
  } catch {
    return null;
  }
}

/** The comment that records a human's decision (from `flotilla proposals accept|reject`). */
export function buildDecisionComment(
  decision: 'accept' | 'reject',
  reason: string,
  edited?: ProposalEdit,
): string {
  const command = decision === 'accept' ? '/accept' : `/reject ${reason.trim()}`.trim();
  const edit =
    decision === 'accept' && edited !== undefined
      ? `\n\nAccepted with edits.\n${PROPOSAL_EDIT_OPENER}\n${JSON.stringify(edited).replaceAll('>', '\\u003e')}\n-->`
      : '';
  return `${PROPOSAL_DECISION_MARKER}\n${command}${edit}`;
}

/** The edited version an acceptance carries (only Flotilla's own decision comments carry one), or null. */
function parseProposalEdit(body: string): ProposalEdit | null {
  const start = body.indexOf(PROPOSAL_EDIT_OPENER);
  if (start < 0) return null;
  const end = body.indexOf('-->', start);
  if (end < 0) return null;
  try {
    const parsed: unknown = JSON.parse(body.slice(start + PROPOSAL_EDIT_OPENER.length, end));
    return typeof parsed === 'object' && parsed !== null ? (parsed as ProposalEdit) : null;
  } catch {
    return null;
  }
}

const COMMAND = /^\/(accept|reject)(?=\s|$)/i;

/** One comment's part in a decision: a command (`/accept`, `/reject <why>`), feedback, or nothing. */
type ReadComment =
  | { kind: 'command'; decision: 'accept' | 'reject'; text: string; edited: ProposalEdit | null }
  | { kind: 'feedback'; text: string }
  | { kind: 'none' };

/**
 * The decision in the comments after the latest proposal comment. A reply whose text starts with `/accept`
 * or `/reject <why>` (the reason is the rest of the comment), or one Flotilla posted for a human, decides;
 * the first one wins. With `feedback` (the proposal's own item), any other reply is feedback (issue #29: a
 * human "comments on a plan"): with no command, the feedback is a rejection whose reason is every such
 * reply, in order (`feedback: true`); before a `/reject`, it opens that rejection's reason; an explicit
 * `/accept` wins over it. Feedback Flotilla posted for a human (`flotilla proposals comment`) counts on
 * any item. Flotilla's other comments (marked `<!-- flotilla:`) never count. Which authors' comments are
 * listed at all is the provider's rule (GitHub: `github.answerAuthorAssociations`, never a drive-by user
 * or a bot). Null when nobody decided yet.
 */
export function findProposalDecision(
  comments: readonly { author: string; body: string }[],
  options: { feedback?: boolean } = {},
): ProposalDecision | null {
  let start = -1;
  comments.forEach((comment, index) => {
    if (comment.body.includes(PROPOSAL_COMMENT_MARKER)) start = index;
  });
  if (start < 0) return null;
  const feedback: { author: string; text: string }[] = [];
  for (const comment of comments.slice(start + 1)) {
    const read = readComment(comment.body, options.feedback === true);
    if (read.kind === 'feedback') feedback.push({ author: comment.author, text: read.text });
    if (read.kind !== 'command') continue;
    if (read.decision === 'accept')
      return read.edited === null
        ? { decision: 'accept', reason: null, author: comment.author }
        : { decision: 'accept', reason: null, author: comment.author, edited: read.edited };
    const reason = [...feedback.map((entry) => entry.text), read.text].filter((text) => text !== '');
    return { decision: 'reject', reason: reason.join('\n\n'), author: comment.author };
  }
  if (feedback.length === 0) return null;
  return {
    decision: 'reject',
    reason: feedback.map((entry) => entry.text).join('\n\n'),
    author: [...new Set(feedback.map((entry) => entry.author))].join(', '),
    feedback: true,
  };
}

function readComment(body: string, plainIsFeedback: boolean): ReadComment {
  if (body.startsWith(PROPOSAL_FEEDBACK_MARKER)) {
    const text = body.slice(PROPOSAL_FEEDBACK_MARKER.length).trim();
    return text === '' ? { kind: 'none' } : { kind: 'feedback', text };
  }
  const flotillas = body.startsWith(PROPOSAL_DECISION_MARKER);
  if (!flotillas && body.includes('<!-- flotilla:')) return { kind: 'none' };
  const text = flotillas ? body.slice(PROPOSAL_DECISION_MARKER.length).trim() : body.trim();
  const match = COMMAND.exec(text);
  if (match === null)
    return plainIsFeedback && !flotillas && text !== '' ? { kind: 'feedback', text } : { kind: 'none' };
  const decision = match[1]?.toLowerCase() === 'accept' ? 'accept' : 'reject';
  return {
    kind: 'command',
    decision,
    text: decision === 'accept' ? '' : text.slice(match[0].length).trim(),
    edited: decision === 'accept' && flotillas ? parseProposalEdit(body) : null,
  };
}

/** The comment that records a human's feedback on a proposal (`flotilla proposals comment`). */
export function buildFeedbackComment(text: string): string {
  return `${PROPOSAL_FEEDBACK_MARKER}\n${text.trim()}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
