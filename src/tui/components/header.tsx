import { Box, Text } from 'ink';
import { describeBudgetPause } from '../../domain/index.ts';
import { omitUndefined } from '../../shared/omit-undefined.ts';
import type { HeaderSummary } from '../view-model/build-header-summary.ts';
import type { QuotaSummary } from '../view-model/build-quota-summary.ts';
import { formatDuration } from '../view-model/format-duration.ts';

/** The quota line's colour by tone; a normal budget keeps the terminal's colour. */
const QUOTA_TONE_COLORS = { paused: 'red', low: 'yellow', normal: undefined } as const;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface HeaderProps {
  summary: HeaderSummary;
  /** Cost of the runs finished since the dashboard started. */
  costUSD: number;
  /** Cost of every run recorded before (the repository's history), when known. */
  previousCostUSD: number | null;
  /** Scripted runs finished: their made-up costs are not in `costUSD`. */
  scriptedCostsLeftOut?: boolean;
  repositoryLabel: string;
  /** The tracker API's rate-limit budget (GitHub); absent for the local provider. */
  quota?: QuotaSummary | null | undefined;
  now: number;
  width: number;
}

/** One line: planner state, agent slots, cost so far this session, the repository. */
export function Header({
  summary,
  costUSD,
  previousCostUSD,
  scriptedCostsLeftOut,
  repositoryLabel,
  quota,
  now,
  width,
}: HeaderProps) {
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate">
        <Text bold color="cyan">
          flotilla{' '}
        </Text>
        {summary.budgetPause ? (
          <Text bold color="red">
            {describeBudgetPause(summary.budgetPause)}
            <Text> │ </Text>
          </Text>
        ) : null}
        <PlannerStatus planner={summary.planner} now={now} />
        <Text> │ </Text>
        <AgentsStatus summary={summary} />
        <Text> │ </Text>
        <Text>${costUSD.toFixed(2)}</Text>
        {previousCostUSD ? <Text dimColor> (${(previousCostUSD + costUSD).toFixed(2)} all runs)</Text> : null}
        {scriptedCostsLeftOut ? <Text dimColor> (excl. scripted)</Text> : null}
        {quota ? (
          <>
            <Text> │ </Text>
            <Text {...omitUndefined({ color: QUOTA_TONE_COLORS[quota.tone] })}>{quota.text}</Text>
          </>
        ) : null}
        <Text> │ </Text>
        <Text dimColor>
          {summary.openItems} open · {repositoryLabel} · ? help
        </Text>
      </Text>
    </Box>
  );
}

/** The planner: running (specs, for how long), queued, failed, or idle with the specs left to plan. */
function PlannerStatus({ planner, now }: { planner: HeaderSummary['planner']; now: number }) {
  const spinner = SPINNER[Math.floor(now / 250) % SPINNER.length];
  if (planner.kind === 'running') {
    return (
      <Text color="cyan">
        planner {spinner} {planner.run.specPaths.length} spec
        {planner.run.specPaths.length === 1 ? '' : 's'} {formatDuration(now - planner.run.requestedAt)}
      </Text>
    );
  }
  if (planner.kind === 'queued') return <Text color="yellow">planner queued</Text>;
  if (planner.kind === 'failed') return <Text color="red">planner failed (p)</Text>;
  return (
    <Text dimColor>
      planner idle{planner.unplannedSpecs > 0 ? ` · ${planner.unplannedSpecs} spec(s) to plan` : ''}
    </Text>
  );
}

/** Agent slots in use, what is queued or waits, checks pending, parked runtimes, what waits on a human. */
function AgentsStatus({ summary }: { summary: HeaderSummary }) {
  return (
    <>
      <Text {...(summary.running > 0 && { color: 'cyan' })}>
        agents {summary.running}/{summary.maxAgents}
      </Text>
      {summary.queued > 0 ? <Text color="yellow"> +{summary.queued} queued</Text> : null}
      {summary.resourceWait !== null ? (
        <Text color="yellow"> (waiting for {summary.resourceWait})</Text>
      ) : null}
      {summary.checksPending > 0 ? <Text color="yellow"> · checks {summary.checksPending}</Text> : null}
      {summary.parked.length > 0 ? <Text color="yellow"> · {summary.parked.join(' · ')}</Text> : null}
      {summary.waitingOnHuman > 0 ? (
        <Text color="red"> · {summary.waitingOnHuman} waiting on you</Text>
      ) : null}
      {summary.pendingProposals > 0 ? (
        <Text color="magenta"> · {summary.pendingProposals} plan to approve (flotilla proposals)</Text>
      ) : null}
    </>
  );
}
