import type { Command } from 'commander';
import { formatCost } from '../../analytics/build-stats-lines.ts';
import { formatUSD } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { formatTable } from '../support/format-table.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';
import { type BudgetReport, buildBudgetReport } from './budget-command-report.ts';

/** The cap names `flotilla budget set` takes, and the config field each one overrides. */
const CAP_ARGUMENTS = {
  'per-run': 'perRunUsd',
  'per-item': 'perItemUsd',
  daily: 'dailyUsd',
  monthly: 'monthlyUsd',
} as const;
type CapArgument = keyof typeof CAP_ARGUMENTS;

function parseCap(name: string): CapArgument {
  if (Object.hasOwn(CAP_ARGUMENTS, name)) return name as CapArgument;
  throw new CliError(`unknown cap '${name}'; expected one of: ${Object.keys(CAP_ARGUMENTS).join(', ')}`, {
    exitCode: 2,
  });
}

function parseAmount(text: string): number | null {
  if (text === 'none') return null;
  const amount = Number(text.replace(/^\$/, ''));
  if (!Number.isFinite(amount) || amount <= 0 || text.trim() === '') {
    throw new CliError(`expected a positive number of US dollars (e.g. 20 or 7.5) or 'none', got '${text}'`, {
      exitCode: 2,
    });
  }
  return amount;
}

const usdOrNone = (amount: number | null) => (amount === null ? 'none' : formatUSD(amount));
/** As `flotilla runs` and `flotilla stats` show it: `$0.0264 (scripted)`. */
const scripted = (amount: number) => formatCost({ costUSD: 0, scriptedCostUSD: amount });
const time = (at: number) => new Date(at).toISOString().slice(0, 16).replace('T', ' ');

function printReport(report: BudgetReport): void {
  const { caps, day, month } = report;
  const periodRow = (name: string, spend: BudgetReport['day']) => [
    `${name} (${spend.period})`,
    usdOrNone(spend.capUSD),
    formatUSD(spend.spentUSD),
    spend.remainingUSD === null ? '-' : formatUSD(spend.remainingUSD),
    spend.reached
      ? `reached: dispatch paused until ${time(spend.resumesAt)} UTC`
      : `${spend.runs} run(s)${spend.scriptedUSD > 0 ? `, ${scripted(spend.scriptedUSD)} not counted` : ''}`,
  ];
  const roles = Object.entries(caps.perRole)
    .map(([role, cap]) => `${role} ${formatUSD(cap)}`)
    .join(', ');
  const top = report.items[0];
  process.stdout.write(
    formatTable(
      ['CAP', 'LIMIT', 'SPENT', 'LEFT', 'NOTE'],
      [
        periodRow('daily', day),
        periodRow('monthly', month),
        [
          'per item',
          usdOrNone(caps.perItemUsd),
          top === undefined ? '-' : `${formatUSD(top.spentUSD)} (#${top.workItemID})`,
          top?.remainingUSD == null ? '-' : formatUSD(top.remainingUSD),
          'highest item',
        ],
        ['per run', usdOrNone(caps.perRunUsd), '-', '-', roles === '' ? '' : `per role: ${roles}`],
      ],
    ),
  );
  const over = report.items.filter((item) => item.reached);
  if (over.length > 0) {
    process.stdout.write(
      `Over their item cap: ${over.map((item) => `#${item.workItemID} ${formatUSD(item.spentUSD)}`).join(', ')}\n`,
    );
  }
  const overridden = Object.entries(report.overrides);
  if (overridden.length > 0) {
    process.stdout.write(
      `Set with \`flotilla budget set\`: ${overridden.map(([cap, value]) => `${cap} ${usdOrNone(value)}`).join(', ')} (\`flotilla budget reset <cap>\` returns to flotilla.config.json)\n`,
    );
  }
  process.stdout.write(
    `All recorded runs: ${formatUSD(report.totalSpentUSD)}. Days and months in ${report.timeZone}.\n`,
  );
  if (report.totalScriptedUSD > 0) {
    process.stdout.write(
      `Scripted runs' made-up costs (${scripted(report.totalScriptedUSD)}) count against no cap.\n`,
    );
  }
}

/**
 * `flotilla budget [--json]`: spend against every cap. `flotilla budget set <cap> <usd|none>` and
 * `flotilla budget reset <cap>` change a cap at runtime (kept in .flotilla/flotilla.db, over the config);
 * a running `flotilla run` picks the change up at its next budget check.
 */
export function registerBudgetCommand(program: Command): void {
  const budget = program
    .command('budget')
    .description(
      'spend against every budget cap (per run, per item, daily, monthly); `set`/`reset` change a cap',
    )
    .option('--json', 'print the report as JSON')
    .action(
      runCliAction('budget', (options: { json?: boolean }) =>
        withCliContext(({ config, history }) => {
          const report = buildBudgetReport(config, history.ledger, Date.now());
          if (options.json) return writeJson(report);
          printReport(report);
        }),
      ),
    );
  budget
    .command('set <cap> <usd>')
    .description("set a cap now: per-run, per-item, daily or monthly, in US dollars, or 'none' to remove it")
    .action(
      runCliAction('budget set', (capName: string, amountText: string) => {
        const cap = parseCap(capName);
        const amount = parseAmount(amountText);
        return withCliContext(({ history }) => {
          history.ledger.setCapOverride(CAP_ARGUMENTS[cap], amount, Date.now());
          process.stdout.write(
            `${cap} cap set to ${usdOrNone(amount)} (over flotilla.config.json); a running flotilla run picks it up at its next budget check.\n`,
          );
        });
      }),
    );
  budget
    .command('reset <cap>')
    .description('return a cap to its value in flotilla.config.json')
    .action(
      runCliAction('budget reset', (capName: string) => {
        const cap = parseCap(capName);
        return withCliContext(({ history }) => {
          history.ledger.clearCapOverride(CAP_ARGUMENTS[cap]);
          process.stdout.write(`${cap} cap is flotilla.config.json's again.\n`);
        });
      }),
    );
}
