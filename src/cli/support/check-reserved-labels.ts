import { WORK_ITEM_COMPLEXITIES, WORK_ITEM_PRIORITIES, WORK_ITEM_STATUSES } from '../../domain/index.ts';
import { CliError } from './cli-error.ts';

const RESERVED: Record<string, readonly string[]> = {
  'status:': WORK_ITEM_STATUSES,
  'task:': ['implement', 'refinement', 'investigate', 'refine'],
  'priority:': WORK_ITEM_PRIORITIES,
  'complexity:': WORK_ITEM_COMPLEXITIES,
};

/**
 * Labels under Flotilla's reserved prefixes must carry a known value: the tracker would silently ignore
 * `priority:urgent`, so it is a usage error (exit 2) instead. Other labels pass as they are.
 */
export function checkReservedLabels(labels: readonly string[]): void {
  for (const label of labels) {
    if (label.trim() === '')
      throw new CliError('a label is empty; expected a non-empty label', { exitCode: 2 });
    for (const [prefix, values] of Object.entries(RESERVED)) {
      if (label.startsWith(prefix) && !values.includes(label.slice(prefix.length))) {
        throw new CliError(
          `label "${label}" has an unknown value; expected one of ${values.map((value) => prefix + value).join(', ')}`,
          { exitCode: 2 },
        );
      }
    }
  }
}
