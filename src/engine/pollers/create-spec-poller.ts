import type { EngineEvent, Spec } from '../../domain/index.ts';
import type { SpecReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import type { Poller, PollerDeps } from './poller.ts';

type SpecChange = { spec: Spec; changeType: 'added' | 'modified' | 'removed' };

/**
 * Diffs specs on the default branch against the store (blob SHA or frontmatter status); the head SHA is
 * read only when something changed. Unreadable specs are reported once per problem, not on every poll.
 */
export function createSpecPoller(deps: PollerDeps<SpecReader>): Poller {
  const failures = createFailureReporter({ source: 'spec poller', ...deps });
  let reportedProblems = new Set<string>();
  return {
    name: 'specs',
    async poll(getState) {
      try {
        const listing = await deps.reader.listSpecs();
        const state = getState();
        const changes: SpecChange[] = [];
        const listedPaths = new Set(listing.specs.map((spec) => spec.filePath));
        for (const { filePath, blobSHA, frontmatterStatus } of listing.specs) {
          const stored = state.specs[filePath];
          if (stored?.blobSHA === blobSHA && stored.frontmatterStatus === frontmatterStatus) continue;
          changes.push({
            spec: { filePath, blobSHA, frontmatterStatus },
            changeType: stored ? 'modified' : 'added',
          });
        }
        for (const stored of Object.values(state.specs)) {
          if (!listedPaths.has(stored.filePath)) changes.push({ spec: stored, changeType: 'removed' });
        }
        const events: EngineEvent[] = [];
        if (changes.length > 0) {
          const commitSHA = await deps.reader.getDefaultBranchSHA();
          for (const { spec, changeType } of changes)
            events.push({ type: 'specChanged', ...spec, changeType, commitSHA });
        }
        const problems = new Set<string>();
        for (const problem of listing.problems) {
          const key = `${problem.filePath}\u0000${problem.message}`;
          problems.add(key);
          if (reportedProblems.has(key)) continue;
          events.push({
            type: 'errorRecorded',
            source: 'spec poller',
            message: `${problem.filePath}: ${problem.message}`,
            at: deps.clock.now(),
          });
        }
        reportedProblems = problems;
        failures.succeeded();
        return events;
      } catch (error) {
        return failures.failed(error);
      }
    },
  };
}
