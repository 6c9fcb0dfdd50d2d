import type { WorkItem, WorkItemStatus } from '../../../domain/index.ts';
import { parseWorkItemLabels } from '../../../domain/work-item-labels.ts';
import { hashText } from '../../../shared/hash-text.ts';
import type { WorkItemReader, WorkItemWriter } from '../../types.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import {
  buildCreationKey,
  buildCreationMarker,
  parseCreationKey,
  stripCreationMarker,
} from './creation-key.ts';
import { buildIssueBody, parseBlockedBy, stripDependencyMetadata } from './dependency-metadata.ts';
import type { GitHubRepository, Issue, ListedIssue } from './github-issue.ts';
import { createNativeDependencies } from './native-dependencies.ts';

export type { GitHubRepository } from './github-issue.ts';

const ISSUE_NUMBER = /^[1-9][0-9]{0,9}$/;
/**
 * The kind labels that make an issue a work item (createWorkItem always sets one): the kinds, and the modes'
 * labels (issue #29) a human files a bug report or a vague item with.
 */
const KIND_LABELS = [
  'task:implement',
  'task:refinement',
  'task:questions',
  'task:proposal',
  'task:investigate',
  'task:refine',
];

/**
 * Work items are the repository's issues that carry `task:implement`, `task:refinement` (docs/reference-behaviour.md §7) or
 * `task:questions` (a planner's questions), `task:proposal` (a plan waiting for `/accept`, issue #29) or a mode's
 * label (`task:investigate`, `task:refine`: a task run in that mode, issue #29):
 * status, kind, priority and complexity come from the reserved labels, blockers from the body's dependency
 * metadata, and a closed issue is `closed` whatever its labels say. Pull requests (issues on GitHub's side)
 * are never work items. Every read is a conditional request, so an unchanged listing costs no quota.
 * `linkedRevision` is the open pull request carrying the item's marker (one more conditional request).
 */
export function createGitHubWorkItems(
  octokit: GitHubOctokit,
  repository: GitHubRepository,
  /** Open pull requests by work item (work item id → revision id); absent: no links. */
  linkedRevisions: () => Promise<Map<string, string>> = async () => new Map(),
): { reader: WorkItemReader; writer: WorkItemWriter } {
  const { owner, repo } = repository;
  const where = `${owner}/${repo}`;

  async function findIssue(id: string): Promise<Issue | null> {
    if (!ISSUE_NUMBER.test(id)) return null;
    try {
      const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: Number(id) });
      return data.pull_request === undefined ? data : null;
    } catch (error) {
      if (httpStatusOf(error) === 404 || httpStatusOf(error) === 410) return null;
      throw error;
    }
  }

  async function requireIssue(id: string): Promise<Issue> {
    const issue = await findIssue(id);
    if (issue === null) throw new Error(`Work item ${id} not found (no issue #${id} in ${where})`);
    return issue;
  }

  async function updateIssue(
    id: string,
    fields: { body?: string; title?: string; state?: 'open' | 'closed' },
  ) {
    await octokit.rest.issues.update({
      owner,
      repo,
      issue_number: Number(id),
      ...fields,
      ...(fields.state === 'closed' ? { state_reason: 'completed' as const } : {}),
    });
  }

  /**
   * Only the labels that change, one add and one removal per label, never the whole set: a PATCH of the
   * set read a moment ago would drop a label a human added in between (or bring back one they removed).
   */
  async function changeLabels(id: string, remove: readonly string[], add: readonly string[]) {
    for (const name of remove) {
      await octokit.rest.issues
        .removeLabel({ owner, repo, issue_number: Number(id), name })
        .catch((error: unknown) => {
          // Already gone (a human removed it first): the outcome wanted.
          if (httpStatusOf(error) !== 404) throw error;
        });
    }
    if (add.length > 0) {
      await octokit.rest.issues.addLabels({ owner, repo, issue_number: Number(id), labels: [...add] });
    }
  }

  const dependencies = createNativeDependencies(octokit, repository);

  async function toWorkItemWithDependencies(
    issue: Issue | ListedIssue,
    links: ReadonlyMap<string, string>,
  ): Promise<WorkItem> {
    const item = toWorkItem(issue, links);
    const native = await dependencies.blockedBy(issue);
    return { ...item, blockedBy: [...new Set([...item.blockedBy, ...native])] };
  }

  /** The open issue a previous run created for the same request (its creation key), if any. */
  async function findCreated(key: string): Promise<ListedIssue | null> {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner,
      repo,
      state: 'open',
      sort: 'created',
      direction: 'asc',
      per_page: 100,
    });
    return (
      issues.find(
        (issue) => issue.pull_request === undefined && parseCreationKey(issue.body ?? '') === key,
      ) ?? null
    );
  }

  const reader: WorkItemReader = {
    async listWorkItems() {
      const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
        owner,
        repo,
        state: 'open',
        sort: 'created',
        direction: 'asc',
        per_page: 100,
      });
      const links = await linkedRevisions();
      const listed = issues
        .filter((issue) => issue.pull_request === undefined)
        .filter((issue) => labelNames(issue).some((label) => KIND_LABELS.includes(label)))
        .sort((a, b) => a.number - b.number);
      return Promise.all(listed.map((issue) => toWorkItemWithDependencies(issue, links)));
    },
    async getWorkItem(id) {
      const issue = await findIssue(id);
      return issue === null ? null : toWorkItemWithDependencies(issue, await linkedRevisions());
    },
    async getWorkItemBody(id) {
      return stripCreationMarker(stripDependencyMetadata((await requireIssue(id)).body ?? ''));
    },
  };

  const writer: WorkItemWriter = {
    async createWorkItem(input) {
      const key = buildCreationKey(input);
      // A crash after GitHub created the issue and before the engine recorded it: the re-run finds it.
      const existing = await findCreated(key);
      const hasKind = input.labels.some((label) => label.startsWith('task:'));
      const issue =
        existing ??
        (
          await octokit.rest.issues.create({
            owner,
            repo,
            title: input.title,
            body: buildIssueBody(`${input.body}${buildCreationMarker(key)}`, input.blockedBy),
            labels: [...(hasKind ? [] : ['task:implement']), ...input.labels],
          })
        ).data;
      // Also on a re-run: the crash may have come between the issue and its native dependencies.
      await dependencies.add(issue, input.blockedBy);
      return toWorkItem(issue, new Map());
    },

    async transitionStatus(id, status) {
      const issue = await requireIssue(id);
      const current = labelNames(issue);
      const wanted = `status:${status}`;
      const remove = current.filter((label) => label.startsWith('status:') && label !== wanted);
      const add = current.includes(wanted) ? [] : [wanted];
      const state = status === 'closed' ? 'closed' : 'open';
      await changeLabels(id, remove, add);
      if (issue.state !== state) await updateIssue(id, { state });
    },

    async updateWorkItem(id, update) {
      const issue = await requireIssue(id);
      if (update.title != null && update.title !== issue.title)
        await updateIssue(id, { title: update.title });
      if (update.body !== null) {
        // The dependency metadata and the creation key are the provider's, not the description: keep them.
        const key = parseCreationKey(issue.body ?? '');
        const description = key === null ? update.body : `${update.body}${buildCreationMarker(key)}`;
        await updateIssue(id, { body: buildIssueBody(description, parseBlockedBy(issue.body ?? '')) });
      }
      if (update.labels !== null) {
        const givenKind = update.labels.some((label) => label.startsWith('task:'));
        const current = labelNames(issue);
        const kept = current.filter(
          (label) => label.startsWith('status:') || (!givenKind && label.startsWith('task:')),
        );
        const wanted = new Set([...kept, ...update.labels.filter((label) => !label.startsWith('status:'))]);
        await changeLabels(
          id,
          current.filter((label) => !wanted.has(label)),
          [...wanted].filter((label) => !current.includes(label)),
        );
      }
    },

    async addComment(id, body) {
      if (!ISSUE_NUMBER.test(id)) throw new Error(`Work item ${id} not found (not an issue number)`);
      try {
        await octokit.rest.issues.createComment({ owner, repo, issue_number: Number(id), body });
      } catch (error) {
        if (httpStatusOf(error) !== 404) throw error;
        throw new Error(`Work item ${id} not found (no issue #${id} in ${where})`, { cause: error });
      }
    },
  };

  return { reader, writer };
}

function labelNames(issue: Issue | ListedIssue): string[] {
  return issue.labels.flatMap((label) => {
    const name = typeof label === 'string' ? label : label.name;
    return name ? [name] : [];
  });
}

function toWorkItem(issue: Issue | ListedIssue, links: ReadonlyMap<string, string>): WorkItem {
  const labels = parseWorkItemLabels(labelNames(issue));
  let status: WorkItemStatus = labels.status ?? 'pending';
  // The issue's state wins: closed by a human (labels untouched) is closed; reopened by one is pending.
  if (issue.state === 'closed') status = 'closed';
  else if (status === 'closed') status = 'pending';
  return {
    id: String(issue.number),
    title: issue.title,
    status,
    kind: labels.kind,
    priority: labels.priority,
    complexity: labels.complexity,
    ...(labels.runtime !== null && { runtime: labels.runtime }),
    ...(labels.mode !== null && { mode: labels.mode }),
    ...(labels.complexityLabel !== null && { complexityLabel: labels.complexityLabel }),
    blockedBy: parseBlockedBy(issue.body ?? ''),
    bodyHash: hashText(stripCreationMarker(stripDependencyMetadata(issue.body ?? ''))),
    // GitHub's timestamps are to the second ("…:00Z"); the domain's are full ISO strings.
    createdAt: new Date(issue.created_at).toISOString(),
    linkedRevision: links.get(String(issue.number)) ?? null,
  };
}
