import type { BudgetReport } from './api-client.ts';

const usd = (value: number) => `$${value.toFixed(2)}`;

/** Today's and this month's spend against their caps (as `flotilla budget`), red once a cap is reached. */
export function BudgetLine({ budget }: { budget: BudgetReport | null }) {
  if (budget === null) return <span class="budget">budget …</span>;
  const period = (label: string, spend: BudgetReport['day']) => (
    <span class={spend.capUSD !== null && spend.remainingUSD === 0 ? 'spent' : ''}>
      {label} {usd(spend.spentUSD)}
      {spend.capUSD === null ? '' : ` / ${usd(spend.capUSD)}`}
    </span>
  );
  return (
    <span class="budget" data-testid="budget">
      {period('today', budget.day)} · {period('month', budget.month)} · total {usd(budget.totalSpentUSD)}
    </span>
  );
}
