import type { EngineEvent, Spec } from '../../domain/index.ts';
import type { SpecReader } from '../../providers/types.ts';
import { createEmissionMemory } from './create-emission-memory.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import { type Poller, type PollerDeps, singleFlight } from './create-work-item-poller.ts';

/**
 * Diffs specs on the default branch against the store (blob SHA or frontmatter status). The head SHA is
 * read only when something changed. Unreadable specs are reported once per problem, not every poll.
 */
export function createSpecPoller(deps: PollerDeps<SpecReader>): Poller {
  const memory = createEmissionMemory<Spec>();
  const failures = createFailureReporter({ source: 'spec poller', ...deps });
  let reportedProblems = new Set<string>();

  return {
    poll: singleFlight(async () => {
      const changes: { spec: Spec; changeType: 'added' | 'modified' | 'removed' }[] = [];
      try {
        const listing = await deps.reader.listSpecs();
        const state = deps.getState();
        const listedPaths = new Set(listing.specs.map((spec) => spec.filePath));
        for (const spec of listing.specs) {
          const stored = state.specs[spec.filePath] ?? null;
          const observed: Spec = {
            filePath: spec.filePath,
            blobSHA: spec.blobSHA,
            frontmatterStatus: spec.frontmatterStatus,
          };
          if (memory.shouldReport(spec.filePath, observed, stored)) {
            changes.push({ spec: observed, changeType: stored ? 'modified' : 'added' });
          }
        }
        for (const stored of Object.values(state.specs)) {
          if (!listedPaths.has(stored.filePath) && memory.shouldReport(stored.filePath, null, stored)) {
            changes.push({ spec: stored, changeType: 'removed' });
          }
        }
        if (changes.length > 0) {
          const commitSHA = await deps.reader.getDefaultBranchSHA();
          for (const { spec, changeType } of changes) {
            deps.emit({ type: 'specChanged', ...spec, changeType, commitSHA } satisfies EngineEvent);
          }
        }
        const problems = new Set<string>();
        for (const problem of listing.problems) {
          const key = `${problem.filePath}\u0000${problem.message}`;
          problems.add(key);
          if (!reportedProblems.has(key)) {
            deps.emit({
              type: 'errorRecorded',
              source: 'spec poller',
              message: `${problem.filePath}: ${problem.message}`,
              at: deps.clock.now(),
            });
          }
        }
        reportedProblems = problems;
        failures.succeeded();
      } catch (error) {
        // Changes recorded but never emitted (the head SHA read failed) must be seen again next cycle.
        for (const { spec } of changes) memory.forget(spec.filePath);
        failures.failed(error);
      }
    }),
  };
}
