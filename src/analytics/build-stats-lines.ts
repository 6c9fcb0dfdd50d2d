import type { CostSplit, OutcomeStats, SpendGroup } from './build-outcome-stats.ts';

/** A line of the stats report; section titles are bold where the screen can show it. */
export interface StatsLine {
  text: string;
  bold?: boolean;
}

/** The period, items done, first-pass approval, spend, runs and tokens; per item when any is done. */
function buildHeadline(stats: OutcomeStats): StatsLine[] {
  const { totals } = stats;
  const headline: StatsLine[] = [];
  headline.push({
    text: `${stats.since === null ? 'Every run recorded' : `Since ${formatLocalTime(Date.parse(stats.since))}`}: ${totals.itemsDone} item${totals.itemsDone === 1 ? '' : 's'} approved or merged (${totals.itemsMerged} merged), first-pass approval ${formatRate(totals.firstPassApproved, totals.reviewedItems)}`,
    bold: true,
  });
  headline.push({
    text: `spend ${formatCost(totals)} · ${totals.runs} run${totals.runs === 1 ? '' : 's'}, ${totals.failedRuns} failed, ${totals.stoppedRuns} stopped · tokens ${formatCount(totals.inputTokens)} in / ${formatCount(totals.outputTokens)} out`,
  });
  if (totals.itemsDone > 0) {
    headline.push({
      text: `per item: ${formatCost({ costUSD: totals.costPerItemUSD ?? 0, scriptedCostUSD: totals.scriptedCostPerItemUSD ?? 0 })} · to approval ${formatMs(totals.medianToApprovalMs)} (median) · review rounds ${formatMean(totals.reviewRoundsPerItem)} · check rounds ${formatMean(totals.checkRoundsPerItem)}`,
    });
  }
  return headline;
}

/**
 * The stats as compact aligned tables: what `flotilla stats` prints and the dashboard's stats panel shows.
 * Scripted runs' made-up cost is marked `(scripted)` and kept out of every real-dollar figure.
 */
export function buildStatsLines(stats: OutcomeStats): StatsLine[] {
  const lines: StatsLine[] = [];
  const title = (text: string) => {
    lines.push({ text: '' }, { text, bold: true });
  };
  const table = (headers: readonly string[], rows: readonly (readonly string[])[]) => {
    for (const text of alignColumns(headers, rows)) lines.push({ text });
  };

  lines.push(...buildHeadline(stats));

  title('ITEMS (approved or merged)');
  if (stats.items.length === 0) lines.push({ text: 'none in this period' });
  else
    table(
      ['ITEM', 'OUTCOME', 'COST', 'RUNS', 'TO APPROVAL', 'TO MERGE', 'REVIEWS', 'CHECKS', 'TITLE'],
      stats.items.map((item) => [
        `#${item.workItemID}`,
        item.outcome,
        formatCost(item),
        String(item.runs),
        formatMs(item.toApprovalMs),
        formatMs(item.toMergeMs),
        `${item.reviewRounds}${item.firstPassApproved ? ' (first pass)' : ''}`,
        item.checkFailures > 0 ? `${item.checkRounds} (${item.checkFailures} red)` : String(item.checkRounds),
        shortTitle(item.title),
      ]),
    );

  title('FAILURES by reason');
  if (stats.failures.length === 0) lines.push({ text: 'none' });
  else
    table(
      ['REASON', 'RUNS', 'COST'],
      stats.failures.map((failure) => [failure.reason, String(failure.runs), formatCost(failure)]),
    );

  title('STOPPED by reason (limits, budget… — not failed attempts)');
  if (stats.stopped.length === 0) lines.push({ text: 'none' });
  else
    table(
      ['REASON', 'RUNS', 'COST'],
      stats.stopped.map((stop) => [stop.reason, String(stop.runs), formatCost(stop)]),
    );

  title('SPEND by role, runtime, model, account');
  const spendRows = (by: string, groups: readonly SpendGroup[]) =>
    groups.map((group) => [
      by,
      group.key ?? 'unknown',
      String(group.runs),
      formatCost(group),
      `${formatCount(group.inputTokens)}/${formatCount(group.outputTokens)}`,
    ]);
  if (stats.totals.runs === 0) lines.push({ text: 'no runs in this period' });
  else
    table(
      ['BY', 'NAME', 'RUNS', 'COST', 'TOKENS IN/OUT'],
      [
        ...spendRows('role', stats.spend.byRole),
        ...spendRows('runtime', stats.spend.byRuntime),
        ...spendRows('model', stats.spend.byModel),
        ...spendRows('account', stats.spend.byAccount),
      ],
    );

  title('TREND per day');
  if (stats.trend.length === 0) lines.push({ text: 'nothing recorded yet' });
  else
    table(
      ['DAY', 'DONE', 'MERGED', 'RUNS', 'FAILED', 'STOPPED', 'SPEND'],
      stats.trend.map((day) => [
        day.day,
        String(day.itemsDone),
        String(day.itemsMerged),
        String(day.runs),
        String(day.failedRuns),
        String(day.stoppedRuns),
        formatCost(day),
      ]),
    );

  title('FILE ESTIMATES (conflict-aware dispatch)');
  lines.push({ text: formatFileEstimates(stats.fileEstimates) });
  return lines;
}

/** One line: how often the scheduler's guess of an implementor's files matched its patch. */
function formatFileEstimates(estimates: OutcomeStats['fileEstimates']): string {
  if (estimates.runs === 0) return 'no completed implementor run with a patch in this period';
  const estimated = estimates.runs - estimates.withoutEstimate;
  const share = (value: number | null) => (value === null ? '-' : `${Math.round(value * 100)}%`);
  return `${estimated} of ${estimates.runs} runs had an estimate; it named a changed file in ${formatRate(estimates.overlapping, estimated)} · estimated files changed ${share(estimates.precision)} · changed files estimated ${share(estimates.recall)}`;
}

/** `$0.1250`, `$0.0024 (scripted)`, or both: `$0.1250 + $0.0024 (scripted)`. */
export function formatCost({ costUSD, scriptedCostUSD }: CostSplit): string {
  const real = `$${costUSD.toFixed(4)}`;
  if (scriptedCostUSD === 0) return real;
  const scripted = `$${scriptedCostUSD.toFixed(4)} (scripted)`;
  return costUSD === 0 ? scripted : `${real} + ${scripted}`;
}

/** Left-aligned columns two spaces apart, header first, no trailing spaces. */
function alignColumns(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  return [headers, ...rows].map((cells) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function formatRate(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((part / whole) * 100)}% (${part}/${whole})`;
}

function formatMean(value: number | null): string {
  return value === null ? '-' : String(Math.round(value * 10) / 10);
}

function formatCount(value: number): string {
  if (value < 10_000) return String(value);
  if (value < 10_000_000) return `${Math.round(value / 1_000)}k`;
  return `${Math.round(value / 1_000_000)}M`;
}

/** `42s`, `3m05s`, `2h04m`, `3d04h`; `-` when unknown. */
function formatMs(ms: number | null): string {
  if (ms === null) return '-';
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d${String(hours % 24).padStart(2, '0')}h`;
}

function formatLocalTime(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The first line, cut to 48 characters; control characters (titles are agent-written) shown as `�`. */
function shortTitle(title: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point
  const line = (title.split('\n')[0] ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '�');
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}
