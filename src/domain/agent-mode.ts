import type { InvestigationReport, RefinementReport } from './agent-result.ts';

/**
 * What an agent run is for (issue #29): the roles' own work (`plan`, `implement`,
 * `review`) and two modes of the implementor's slot that never write files: `investigate` finds a bug's
 * cause and proposes fix items, `refine` turns a vague item into a precise one. Each mode has its agent
 * definition (`.claude/agents/<mode>.md`), output schema, limits and rights.
 */
export const AGENT_MODES = ['plan', 'implement', 'review', 'investigate', 'refine'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** Modes whose agent may not write a file (path guard and bash validator enforce it; fail closed). */
export function isReadOnlyMode(mode: AgentMode | undefined): boolean {
  return mode === 'investigate' || mode === 'refine';
}

/** The report of an investigation as Markdown: posted on the bug's item and kept as its fixes' context. */
export function buildInvestigationMarkdown(report: InvestigationReport): string {
  const list = (items: readonly string[]) =>
    items.length === 0 ? '- (none)' : items.map((i) => `- ${i}`).join('\n');
  return [
    '## Investigation report',
    '',
    report.summary,
    '',
    '### Root cause',
    '',
    report.rootCause,
    '',
    '### Evidence',
    '',
    list(report.evidence),
    '',
    '### Files',
    '',
    list(report.files.map((file) => `\`${file}\``)),
    '',
    '### Proposed fix items',
    '',
    list(report.fixes.map((fix) => `${fix.title} (${fix.tempID})`)),
  ].join('\n');
}

/** A refined item's body: the new description, its acceptance criteria and the files it touches. */
export function buildRefinedBody(report: RefinementReport): string {
  const parts = [report.body.trim()];
  if (report.acceptanceCriteria.length > 0)
    parts.push(
      ['## Acceptance criteria', '', ...report.acceptanceCriteria.map((c) => `- [ ] ${c}`)].join('\n'),
    );
  if (report.files.length > 0)
    parts.push(['## Files', '', ...report.files.map((file) => `- \`${file}\``)].join('\n'));
  return parts.join('\n\n');
}

/**
 * The refined item's labels: `task:implement` (its `task:refine` goes), the report's own labels but kind,
 * status and complexity, and its size as `complexity:*`.
 */
export function buildRefinedLabels(report: RefinementReport): string[] {
  const kept = report.labels.filter(
    (label) => !label.startsWith('task:') && !label.startsWith('status:') && !label.startsWith('complexity:'),
  );
  return [...new Set(['task:implement', ...kept, `complexity:${report.size}`])];
}
