import type { PipelineStatus } from '../../../src/domain/index.ts';
import type { Provider } from '../../../src/providers/types.ts';
import { checkPatchApplies, type PatchApplyCheck } from './check-patch-applies.ts';
import { type CallRecorder, createCallRecorder, type ProviderMethodName } from './create-call-recorder.ts';
import { createInMemoryLocalAdmin } from './create-in-memory-local-admin.ts';
import { createInMemoryMerge } from './create-in-memory-merge.ts';
import { createInMemoryRevisions } from './create-in-memory-revisions.ts';
import { createInMemorySpecs } from './create-in-memory-specs.ts';
import { createInMemoryWorkItems } from './create-in-memory-work-items.ts';
import { createInMemoryWorld } from './in-memory-world.ts';

export interface InMemoryProviderOptions {
  /** Epoch milliseconds, for `createdAt`. Default `Date.now` (so Vitest fake timers apply). */
  now?: () => number;
  /** Pipeline of a new revision and after every push. Default `pending`; `success` simulates "no CI". */
  initialPipelineStatus?: PipelineStatus;
  /** Decides whether a patch applies; throw to reject. Default: `checkPatchApplies`. */
  applyPatch?: PatchApplyCheck;
  /** Author of engine-created revisions and of the engine's reviews. Default `flotilla`. */
  engineAuthor?: string;
}

type WorkItemsPart = ReturnType<typeof createInMemoryWorkItems>;
type RevisionsPart = ReturnType<typeof createInMemoryRevisions>;
type SpecsPart = ReturnType<typeof createInMemorySpecs>;

/**
 * Test-side helpers. They act as the outside world (a human, CI, a merge) and bypass the call log and
 * injected failures; only the five provider interfaces are logged.
 */
export type InMemoryProviderControl = WorkItemsPart['control'] &
  RevisionsPart['control'] &
  SpecsPart['control'] &
  Pick<CallRecorder, 'failNext' | 'clearFailures' | 'calls' | 'clearCalls'>;

export type InMemoryProvider = Provider & { control: InMemoryProviderControl };

/**
 * A tracker in memory, behaving like the GitHub provider: work items and revisions share one number
 * sequence ("1", "2", … like issues and PRs), every result is a deep copy, and every call is logged.
 */
export function createInMemoryProvider(options: InMemoryProviderOptions = {}): InMemoryProvider {
  const world = createInMemoryWorld(options.now ?? (() => Date.now()));
  const workItems = createInMemoryWorkItems(world);
  const revisions = createInMemoryRevisions(world, {
    initialPipelineStatus: options.initialPipelineStatus ?? 'pending',
    applyPatch: options.applyPatch ?? checkPatchApplies,
    engineAuthor: options.engineAuthor ?? 'flotilla',
  });
  const specs = createInMemorySpecs(world);
  const recorder = createCallRecorder();
  const deletedBranches = new Set<string>();

  return {
    workItemReader: wrapAll(recorder, workItems.reader),
    workItemWriter: wrapAll(recorder, workItems.writer),
    revisionReader: wrapAll(recorder, revisions.reader),
    revisionWriter: wrapAll(recorder, {
      ...revisions.writer,
      mergeRevision: createInMemoryMerge({
        world,
        workItems: workItems.control,
        revisions: revisions.control,
      }),
      // The double has no git: every open revision already sits on its default branch.
      async updateRevisionBranch(revisionID: string, expectedHeadSHA: string) {
        const revision = await revisions.reader.getRevision(revisionID);
        if (revision === null) throw new Error(`in-memory provider: revision ${revisionID} is not open`);
        if (revision.headSHA !== expectedHeadSHA) {
          throw new Error(`in-memory provider: revision ${revisionID} is not at ${expectedHeadSHA}`);
        }
        return { outcome: 'up-to-date' as const, revision };
      },
      // The double keeps no branches apart from its revisions: the first delete deletes, then it is gone.
      async deleteRevisionBranch(revisionID: string) {
        const record = world.revisions.get(revisionID);
        if (record === undefined)
          throw new Error(`in-memory provider: revision ${revisionID} does not exist`);
        if (deletedBranches.has(record.branchName)) return 'gone' as const;
        deletedBranches.add(record.branchName);
        return 'deleted' as const;
      },
    }),
    specReader: wrapAll(recorder, specs.reader),
    localAdmin: createInMemoryLocalAdmin(world, {
      reader: workItems.reader,
      writer: workItems.writer,
      revisions: revisions.reader,
    }),
    control: {
      ...workItems.control,
      ...revisions.control,
      ...specs.control,
      failNext: recorder.failNext,
      clearFailures: recorder.clearFailures,
      calls: recorder.calls,
      clearCalls: recorder.clearCalls,
    },
  };
}

type AsyncMethods<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> };

function wrapAll<T extends AsyncMethods<T>>(recorder: CallRecorder, implementation: T): T {
  const entries = Object.entries(implementation).map(([name, method]) => [
    name,
    // The keys of the five provider interfaces are exactly ProviderMethodName.
    recorder.wrap(name as ProviderMethodName, method as (...args: unknown[]) => Promise<unknown>),
  ]);
  // Same keys, same signatures: each method is replaced by a wrapper with its own parameter list.
  return Object.fromEntries(entries) as T;
}
