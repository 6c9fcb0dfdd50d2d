import type { EngineCommand, MergeQueueOutcome, WorkItem } from '../../domain/index.ts';
import { reactToStep, sendBackForRedChecks } from '../../engine/handlers/handle-merge-queue.ts';
import type { MergeQueueEntry, MergeQueueView } from '../../engine/state-store/selectors/index.ts';
import type { ConfiguredProvider } from '../../providers/provider-descriptor.ts';
import { CliError } from './cli-error.ts';
import { loadMergeQueue } from './load-merge-queue.ts';

/** What `flotilla merge --queue` did with one entry. */
export interface MergeQueueRunStep {
  workItemID: string;
  revisionID: string;
  outcome: MergeQueueOutcome | 'checks-failed' | 'changed-approved';
  /** The head after the step (merged: the default branch's new head). */
  headSHA: string;
}

export interface RunMergeQueueOptions {
  /** How often a head whose checks run elsewhere (GitHub) is read again. Default 10 s. */
  pollMs?: number;
  /** How long one head's checks may take. Default 30 minutes. */
  checksTimeoutMs?: number;
  /** Each step as it happens (the human output). */
  onStep?: (step: MergeQueueRunStep) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `flotilla merge --queue` (issue #30 §5): the engine's merge queue run in the foreground, once, over what is
 * approved now — the same order (buildMergeQueue), the same provider steps and the same send-backs as
 * handle-merge-queue.ts. The head is brought onto the default branch (`updateRevisionBranch`), its checks
 * waited for (run here for the local provider), and merged only as a fast-forward to the head that passed;
 * a conflict, a rebase that changed what was approved, or red checks send it back (a comment and a
 * transition) and the next entry becomes the head. Where the tracker's own merge queue is used (GitHub's:
 * a step answered `enqueued`, or an entry already sits in it), every entry that can go — the head, then each
 * one with green checks and its blockers merged — is handed to it in the same pass, as the engine's pass
 * does: the tracker tests them together. Ends when no entry can go; returns every step.
 */
export async function runMergeQueue(
  provider: ConfiguredProvider,
  options: RunMergeQueueOptions = {},
): Promise<MergeQueueRunStep[]> {
  const { updateRevisionBranch, mergeRevision } = provider.revisionWriter;
  if (updateRevisionBranch === undefined || mergeRevision === undefined) {
    throw new CliError(`the ${provider.name} provider cannot run a merge queue; merge items one by one`, {
      exitCode: 2,
    });
  }
  const steps: MergeQueueRunStep[] = [];
  const handedOver = new Set<string>();
  let trackerQueue = false;
  for (;;) {
    const view = await loadMergeQueue(provider);
    trackerQueue ||= view.entries.some((entry) => entry.trackerQueue !== null);
    const next = nextEntry(view, handedOver, trackerQueue);
    if (next === undefined) return steps;
    const item = await provider.workItemReader.getWorkItem(next.workItemID);
    if (item === null) return steps;
    const stepped = await stepEntry(provider, { updateRevisionBranch, mergeRevision }, next, item, options);
    for (const step of stepped) {
      steps.push(step);
      options.onStep?.(step);
      if (step.outcome === 'enqueued') {
        handedOver.add(step.workItemID);
        trackerQueue = true;
      }
    }
  }
}

/**
 * The entry to step next: Flotilla's own queue steps its head only; the tracker's queue takes the head and
 * every entry with green checks and its blockers merged that is not in it yet (nor handed to it this run).
 */
function nextEntry(
  view: MergeQueueView,
  handedOver: ReadonlySet<string>,
  trackerQueue: boolean,
): MergeQueueEntry | undefined {
  const isHead = (entry: MergeQueueEntry) => entry.workItemID === view.head?.workItemID;
  return view.entries.find(
    (entry) =>
      !handedOver.has(entry.workItemID) &&
      (trackerQueue
        ? entry.trackerQueue === null &&
          (isHead(entry) || (entry.pipeline === 'success' && entry.waitingFor.length === 0))
        : isHead(entry)),
  );
}

type QueueWriters = Required<
  Pick<ConfiguredProvider['revisionWriter'], 'updateRevisionBranch' | 'mergeRevision'>
>;

/** One entry through the queue: brought onto the default branch (or handed over), checked, merged or sent back. */
async function stepEntry(
  provider: ConfiguredProvider,
  { updateRevisionBranch, mergeRevision }: QueueWriters,
  head: MergeQueueEntry,
  item: WorkItem,
  options: RunMergeQueueOptions,
): Promise<MergeQueueRunStep[]> {
  const state = { workItems: { [item.id]: item } };
  const at = (outcome: MergeQueueRunStep['outcome'], sha: string): MergeQueueRunStep => ({
    workItemID: head.workItemID,
    revisionID: head.revisionID,
    outcome,
    headSHA: sha,
  });
  const step = {
    type: 'mergeQueueStepped' as const,
    workItemID: head.workItemID,
    revisionID: head.revisionID,
    previousHeadSHA: head.headSHA,
    at: Date.now(),
  };
  const update = await updateRevisionBranch(head.revisionID, head.headSHA);
  if (update.outcome === 'conflict') {
    const conflict = { revisionID: head.revisionID, headSHA: head.headSHA, ...update };
    await apply(
      provider,
      reactToStep({ ...step, outcome: 'conflict', headSHA: head.headSHA, conflict }, state),
    );
    return [at('conflict', head.headSHA)];
  }
  if (update.outcome === 'enqueued') return [at('enqueued', head.headSHA)];
  const headSHA = update.revision.headSHA;
  const done: MergeQueueRunStep[] = [];
  if (update.outcome === 'rebased') {
    const changedApproved = update.changedApproved;
    await apply(provider, reactToStep({ ...step, outcome: 'rebased', headSHA, changedApproved }, state));
    done.push(at(changedApproved ? 'changed-approved' : 'rebased', headSHA));
    if (changedApproved) return done;
  }
  const checked = await waitForChecks(provider, head.revisionID, headSHA, options);
  if (checked === 'failure') {
    const revision = await provider.revisionReader.getRevision(head.revisionID);
    await apply(provider, sendBackForRedChecks(head.workItemID, head.revisionID, revision ?? undefined));
    return [...done, at('checks-failed', headSHA)];
  }
  const merged = await mergeRevision(head.revisionID, { expectedHeadSHA: headSHA, fastForwardOnly: true });
  return [...done, at('merged', merged.mergedSHA)];
}

/** The head's checks: run here when the provider runs them, else read until they end. */
async function waitForChecks(
  provider: ConfiguredProvider,
  revisionID: string,
  headSHA: string,
  options: RunMergeQueueOptions,
): Promise<'success' | 'failure'> {
  const deadline = Date.now() + (options.checksTimeoutMs ?? 30 * 60_000);
  await provider.runPendingChecks();
  for (;;) {
    const revision = await provider.revisionReader.getRevision(revisionID);
    if (revision === null || revision.headSHA !== headSHA) {
      throw new CliError(
        `revision ${revisionID} moved while its checks ran; run \`flotilla merge --queue\` again`,
        {
          exitCode: 1,
        },
      );
    }
    const status = revision.pipeline?.status;
    if (status === 'success' || status === 'failure') return status;
    if (Date.now() > deadline) {
      throw new CliError(
        `the checks of revision ${revisionID} (${headSHA.slice(0, 12)}) did not end in time`,
        {
          exitCode: 1,
        },
      );
    }
    await sleep(options.pollMs ?? 10_000);
  }
}

/** The send-back's two commands, written through the provider as the engine's executor writes them. */
async function apply(provider: ConfiguredProvider, commands: EngineCommand[]): Promise<void> {
  for (const command of commands) {
    if (command.type === 'commentOnWorkItem') {
      await provider.workItemWriter.addComment(command.workItemID, command.body);
    } else if (command.type === 'transitionWorkItemStatus') {
      await provider.workItemWriter.transitionStatus(command.workItemID, command.newStatus);
    }
  }
}
