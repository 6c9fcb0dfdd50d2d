import { type AgentRole, type BudgetStop, formatUSD } from '../../../domain/index.ts';

export interface OverBudgetCommentInput {
  workItemID: string;
  role: Exclude<AgentRole, 'planner'>;
  scope: Extract<BudgetStop['scope'], 'item' | 'run'>;
  spentUSD: number;
  capUSD: number;
  /** The refused run's estimated cost, when the refusal came before a run started. */
  estimateUSD: number | null;
}

/** The comment left on a work item parked as blocked by its budget: spent, cap, and how to raise the cap. */
export function buildOverBudgetComment(input: OverBudgetCommentInput): string {
  const { workItemID, role, scope, spentUSD, capUSD, estimateUSD } = input;
  const what =
    scope === 'run'
      ? `an ${role === 'implementor' ? 'implementor' : 'reviewer'} run reached the per-run cap: it spent ` +
        `${formatUSD(spentUSD)} of ${formatUSD(capUSD)}`
      : estimateUSD === null
        ? `its runs have spent ${formatUSD(spentUSD)} of its ${formatUSD(capUSD)} budget`
        : `its runs have spent ${formatUSD(spentUSD)} of its ${formatUSD(capUSD)} budget, and the next ` +
          `${role} run is estimated at ${formatUSD(estimateUSD)}`;
  const raise =
    scope === 'run'
      ? `\`budgets.perRunUsd\` (or \`budgets.perRole.${role}\`) in flotilla.config.json, or run ` +
        '`flotilla budget set per-run <usd>`'
      : '`budgets.perItemUsd` in flotilla.config.json, or run `flotilla budget set per-item <usd>`';
  return [
    `Flotilla: this item is blocked by its budget — ${what}.`,
    '',
    `To continue, raise ${raise}, then move the item back to pending ` +
      `(\`flotilla work transition ${workItemID} pending\`).`,
  ].join('\n');
}
