import { isNode, LineCounter, parseDocument, stringify } from 'yaml';
import type { ModeReport, PlannerResult, Proposal, ProposalEdit } from '../../domain/index.ts';
import { proposalEditSchema } from '../../engine/runtime-contract/index.ts';

/** What `flotilla proposals accept --edit` opens: the plan or report as YAML, with how to edit it. */
export function buildProposalEditText(proposal: Proposal): string {
  const value = proposal.report ?? proposal.result;
  return [
    `# Proposal #${proposal.id} (${proposal.kind}). Edit it, save and quit: the edited version is accepted.`,
    '# Lines starting with # are ignored. Quit without saving (or empty the file) to cancel.',
    stringify(value, { lineWidth: 0 }),
  ].join('\n');
}

export type ParsedProposalEdit = { ok: true; edit: ProposalEdit } | { ok: false; error: string };

/**
 * Reads an edited proposal: YAML, checked with the kind's schema. A problem names the line (1-based) of the
 * YAML error or of the field the schema refused (`line 7: fixes[0].title: expected string, received number`).
 */
export function parseProposalEdit(kind: Proposal['kind'], text: string): ParsedProposalEdit {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const line = syntax.linePos?.[0]?.line ?? lineCounter.linePos(syntax.pos[0]).line;
    return { ok: false, error: `line ${line}: ${syntax.message.split('\n')[0]}` };
  }
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return { ok: false, error: 'line 1: the file is empty' };
  const parsed = proposalEditSchema(kind).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
    const line = lineOf(document, lineCounter, path);
    const field = path.length === 0 ? '(the document)' : formatPath(path);
    return { ok: false, error: `line ${line}: ${field}: ${issue.message}` };
  }
  return kind === 'plan'
    ? { ok: true, edit: { result: parsed.data as PlannerResult } }
    : { ok: true, edit: { report: parsed.data as ModeReport } };
}

/** The line of the deepest node of `path` the document has (a missing field: its parent's line). */
function lineOf(
  document: ReturnType<typeof parseDocument>,
  lineCounter: LineCounter,
  path: readonly (string | number)[],
): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node: unknown = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range !== undefined && node.range !== null)
      return lineCounter.linePos(node.range[0]).line;
  }
  return 1;
}

function formatPath(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? key : `${text}.${key}`),
    '',
  );
}
