import type { WorkItem, WorkItemStatus } from '../../../domain/index.ts';
import { parseWorkItemLabels } from '../../../domain/work-item-labels.ts';
import type { WorkItemReader, WorkItemWriter } from '../../types.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import { buildIssueBody, parseBlockedBy, stripDependencyMetadata } from './dependency-metadata.ts';

export interface GitHubRepository {
  owner: string;
  repo: string;
}

type Issue = Awaited<ReturnType<GitHubOctokit['rest']['issues']['get']>>['data'];
type ListedIssue = Awaited<ReturnType<GitHubOctokit['rest']['issues']['listForRepo']>>['data'][number];

const ISSUE_NUMBER = /^[1-9][0-9]{0,9}$/;
/** The kind labels that make an issue a work item (createWorkItem always sets one). */
const KIND_LABELS = ['task:implement', 'task:refinement'];

/**
 * Work items are the repository's issues that carry `task:implement` or `task:refinement` (reference §7):
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
    fields: { body?: string; labels?: string[]; state?: 'open' | 'closed' },
  ) {
    await octokit.rest.issues.update({
      owner,
      repo,
      issue_number: Number(id),
      ...fields,
      ...(fields.state === 'closed' ? { state_reason: 'completed' as const } : {}),
    });
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
      return issues
        .filter((issue) => issue.pull_request === undefined)
        .filter((issue) => labelNames(issue).some((label) => KIND_LABELS.includes(label)))
        .sort((a, b) => a.number - b.number)
        .map((issue) => toWorkItem(issue, links));
    },
    async getWorkItem(id) {
      const issue = await findIssue(id);
      return issue === null ? null : toWorkItem(issue, await linkedRevisions());
    },
    async getWorkItemBody(id) {
      return stripDependencyMetadata((await requireIssue(id)).body ?? '');
    },
  };

  const writer: WorkItemWriter = {
    async createWorkItem(input) {
      const hasKind = input.labels.some((label) => label.startsWith('task:'));
      const { data } = await octokit.rest.issues.create({
        owner,
        repo,
        title: input.title,
        body: buildIssueBody(input.body, input.blockedBy),
        labels: [...(hasKind ? [] : ['task:implement']), ...input.labels],
      });
      return toWorkItem(data, new Map());
    },

    async transitionStatus(id, status) {
      const issue = await requireIssue(id);
      const current = labelNames(issue);
      const labels = [...current.filter((label) => !label.startsWith('status:')), `status:${status}`];
      const state = status === 'closed' ? 'closed' : 'open';
      if (issue.state === state && sameSet(current, labels)) return;
      await updateIssue(id, { labels, state });
    },

    async updateWorkItem(id, update) {
      const issue = await requireIssue(id);
      const fields: { body?: string; labels?: string[] } = {};
      if (update.body !== null) {
        // The dependency metadata is the provider's, not part of the description: keep it.
        fields.body = buildIssueBody(update.body, parseBlockedBy(issue.body ?? ''));
      }
      if (update.labels !== null) {
        const givenKind = update.labels.some((label) => label.startsWith('task:'));
        const kept = labelNames(issue).filter(
          (label) => label.startsWith('status:') || (!givenKind && label.startsWith('task:')),
        );
        fields.labels = [...kept, ...update.labels.filter((label) => !label.startsWith('status:'))];
      }
      if (fields.body === undefined && fields.labels === undefined) return;
      await updateIssue(id, fields);
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
    blockedBy: parseBlockedBy(issue.body ?? ''),
    // GitHub's timestamps are to the second ("…:00Z"); the domain's are full ISO strings.
    createdAt: new Date(issue.created_at).toISOString(),
    linkedRevision: links.get(String(issue.number)) ?? null,
  };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}
