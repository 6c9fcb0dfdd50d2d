import {
  type AgentReview,
  describeChecksOutcome,
  formatChecksLine,
  type Revision,
  type WorkItem,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type { ConfiguredProvider } from '../../providers/provider-descriptor.ts';
import { CliError } from './cli-error.ts';
import type { CliContext } from './open-cli-context.ts';
import { requireProviderItem } from './require-provider-item.ts';
import { writeJson } from './write-json.ts';

const out = (text: string) => process.stdout.write(text);

/**
 * The tracker commands (`diff`, `checks`, `review`) through the provider contract: every
 * provider's `work reopen` and `work dispatch`, and the others for a provider without a local tracker
 * (GitHub: issues and pull requests; the local tracker's versions are in the commands' files, for what only it
 * can do). What the contract cannot do (closed issues, free labels, titles, human comments' history) is
 * refused by the commands, naming where to do it (the provider's `links`).
 */
export const contractTrackerCommands = {
  /** `flotilla diff`: the pull request's files as GitHub reports them (its per-file patches). */
  async diff(context: CliContext, id: string, options: { nameOnly?: boolean }): Promise<void> {
    const provider = await context.provider.open();
    const item = await requireItem(provider, id);
    const revision = await requireRevision(provider, item, 'so there is no diff');
    const files = await provider.revisionReader.getRevisionFiles(revision.id);
    if (options.nameOnly) return void out(files.map((file) => `${file.path}\n`).join(''));
    for (const file of files) {
      out(`diff --git a/${file.path} b/${file.path}\n--- ${file.status}\n+++ ${file.path}\n`);
      out(
        file.patch === null
          ? '(no textual diff: binary or too large)\n'
          : `${file.patch.replace(/\n?$/, '\n')}`,
      );
    }
  },

  /** `flotilla checks`: the pull request head's checks (exit 0 passed, 1 failed, 8 pending, like `gh pr checks`). */
  async checks(context: CliContext, id: string, options: { json?: boolean }): Promise<number> {
    const provider = await context.provider.open();
    const item = await requireItem(provider, id);
    const revision = await requireRevision(provider, item, 'so there are no checks');
    const pipeline = revision.pipeline;
    if (options.json) {
      writeJson({
        workItemID: id,
        revisionID: revision.id,
        headSHA: revision.headSHA,
        status: pipeline === null ? 'pending' : describeChecksOutcome(pipeline.status),
        reason: pipeline?.reason ?? null,
        url: pipeline?.url ?? null,
      });
    } else {
      out(
        `#${id} PR #${revision.id} at ${revision.headSHA.slice(0, 12)}: ${formatChecksLine(pipeline, '')}\n`,
      );
    }
    return pipeline?.status === 'success' ? 0 : pipeline?.status === 'failure' ? 1 : 8;
  },

  /**
   * `flotilla review --approve|--request-changes|--comment`: a pull request review (or comment) signed with the
   * human's name, then the item's status as the local tracker does (approved; pending to be reworked).
   */
  async review(
    context: CliContext,
    id: string,
    input: { verdict: 'approve' | 'request-changes' | 'comment'; body: string; author: string },
  ): Promise<void> {
    const provider = await context.provider.open();
    const item = await requireItem(provider, id);
    if (item.status === 'closed') {
      throw new CliError(`#${id} is closed; there is nothing to review (\`flotilla work reopen ${id}\`)`, {
        exitCode: 1,
      });
    }
    const revision = await requireRevision(provider, item, 'to review');
    if (item.status === 'in-progress') {
      throw new CliError(
        `#${id} is in-progress: an implementor is reworking pull request #${revision.id}; review the new head when it is in review`,
        { exitCode: 1 },
      );
    }
    const signed = `${input.body.trim() === '' ? 'Approved.' : input.body.trimEnd()}\n\n— ${input.author} (via \`flotilla review\`)`;
    if (input.verdict === 'comment') await provider.revisionWriter.postComment(revision.id, signed);
    else {
      const verdict: AgentReview['verdict'] = input.verdict === 'approve' ? 'approve' : 'needs-changes';
      await provider.revisionWriter.postReview(revision.id, { verdict, summary: signed, comments: [] });
    }
    const status: WorkItemStatus =
      input.verdict === 'approve'
        ? 'approved'
        : input.verdict === 'request-changes'
          ? 'pending'
          : item.status;
    if (status !== item.status) await provider.workItemWriter.transitionStatus(id, status);
    out(
      `${input.verdict === 'comment' ? 'commented on' : 'reviewed'} pull request #${revision.id}: ` +
        (status === item.status ? `#${id} stays ${status}\n` : `#${id} ${item.status} → ${status}\n`),
    );
  },
};

/** The item in the provider's words (requireProviderItem), for the commands here that have no other name. */
const requireItem = (provider: ConfiguredProvider, id: string): Promise<WorkItem> =>
  requireProviderItem(provider, id);

async function linkedRevision(provider: ConfiguredProvider, item: WorkItem): Promise<Revision | null> {
  return item.linkedRevision === null ? null : provider.revisionReader.getRevision(item.linkedRevision);
}

async function requireRevision(
  provider: ConfiguredProvider,
  item: WorkItem,
  purpose: string,
): Promise<Revision> {
  const revision = await linkedRevision(provider, item);
  if (revision === null) {
    throw new CliError(`#${item.id} has no open pull request ${purpose} (it is ${item.status})`, {
      exitCode: 1,
    });
  }
  return revision;
}
