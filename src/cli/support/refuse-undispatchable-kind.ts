import type { WorkItem } from '../../domain/index.ts';
import { CliError } from './cli-error.ts';

/**
 * `work dispatch` on an item implementors never take (a planner's questions, a plan proposal, a
 * refinement): a CliError (exit 1) saying what to do instead. Shared by the local and the contract path.
 */
export function refuseUndispatchableKind(item: Pick<WorkItem, 'id' | 'kind'>): void {
  const id = item.id;
  if (item.kind === 'questions') {
    throw new CliError(`#${id} carries a planner's questions; answer them with \`flotilla answer ${id}\``, {
      exitCode: 1,
    });
  }
  if (item.kind === 'proposal') {
    throw new CliError(
      `#${id} carries a plan proposal; decide it with \`flotilla proposals accept ${id}\` or \`flotilla proposals reject ${id} --comment …\``,
      { exitCode: 1 },
    );
  }
  if (item.kind === 'refinement') {
    throw new CliError(
      `#${id} is a refinement item (a question about a spec); implementors never take those. Answer it in the spec, then \`flotilla work close ${id}\``,
      { exitCode: 1 },
    );
  }
}
