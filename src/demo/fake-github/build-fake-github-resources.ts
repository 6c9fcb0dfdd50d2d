/**
 * JSON bodies in GitHub's REST shapes (a subset of the fields @octokit/fixtures recorded from api.github.com;
 * fake-github-shapes.test.ts holds the fake to them). Pure builders over the fake's records.
 */

export interface FakeUser {
  login: string;
  id: number;
  /** GitHub's account type: a GitHub App's bot (`<slug>[bot]`, github-actions…) is `Bot`. Default `User`. */
  type?: 'User' | 'Bot';
}

export interface FakeLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

/** GitHub's `author_association`: the author's relation to the repository. */
export type FakeAuthorAssociation =
  | 'OWNER'
  | 'MEMBER'
  | 'COLLABORATOR'
  | 'CONTRIBUTOR'
  | 'FIRST_TIME_CONTRIBUTOR'
  | 'FIRST_TIMER'
  | 'MANNEQUIN'
  | 'NONE';

export interface FakeComment {
  id: number;
  body: string;
  user: FakeUser;
  /** Default `OWNER` (the fake's token user and its human own the repository). */
  authorAssociation?: FakeAuthorAssociation;
  createdAt: string;
  /** Default `createdAt` (never edited). */
  updatedAt?: string;
}

export interface FakeReview {
  id: number;
  user: FakeUser;
  /** Default `OWNER`. */
  authorAssociation?: FakeAuthorAssociation;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
  commitID: string;
  submittedAt: string;
}

export interface FakeReviewComment {
  id: number;
  reviewID: number | null;
  user: FakeUser;
  /** Default `OWNER`. */
  authorAssociation?: FakeAuthorAssociation;
  /** The thread's first comment, for a reply. */
  inReplyTo?: number;
  /** The diff down to the commented line (GitHub's `diff_hunk`). */
  diffHunk?: string;
  path: string;
  /** Null for a comment on the whole file (`subject_type: file`). */
  line: number | null;
  body: string;
  commitID: string;
  createdAt: string;
}

/** What makes an issue a pull request. */
export interface FakePull {
  headRef: string;
  baseRef: string;
  draft: boolean;
  mergedAt: string | null;
  reviews: FakeReview[];
  reviewComments: FakeReviewComment[];
  /** `base..head` whose mergeability GitHub has computed (a read of any other pair answers null first). */
  mergeableFor?: string | undefined;
  /** Its entry in the base branch's merge queue (fake-github-merge-queue.ts); absent or null: not queued. */
  queueEntry?: FakeQueueEntry | null;
  /** Added to and removed from the merge queue, oldest first (GraphQL `timelineItems`). */
  queueEvents?: FakeQueueEvent[];
}

/** A pull request waiting in the merge queue: the head queued, and the merge group built for it. */
export interface FakeQueueEntry {
  headSHA: string;
  enqueuedAt: string;
  /** The merge group's commit (base merged with the head) and the base it was built on; null: not built. */
  group: { sha: string; base: string } | null;
}

export interface FakeQueueEvent {
  type: 'AddedToMergeQueueEvent' | 'RemovedFromMergeQueueEvent';
  /** The head when it happened (`beforeCommit` of a removal). */
  headSHA: string;
  /** Why it was removed (GitHub's `reason`, free text); null for an addition. */
  reason: string | null;
  createdAt: string;
}

export interface FakeIssue {
  number: number;
  id: number;
  title: string;
  body: string | null;
  labels: string[];
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: FakeUser | null;
  comments: FakeComment[];
  pull: FakePull | null;
  /** Native "blocked by" dependencies: the blocking issues' numbers. */
  blockedBy: number[];
}

/** GitHub's `issue_dependencies_summary` (sent where the repository has issue dependencies). */
export interface FakeDependenciesSummary {
  blocked_by: number;
  blocking: number;
  total_blocked_by: number;
  total_blocking: number;
}

export interface FakeUrls {
  /** The API root, e.g. http://127.0.0.1:PORT */
  api: string;
  /** owner/repo */
  fullName: string;
}

export const nodeID = (kind: string, id: number) => Buffer.from(`0:${kind}${id}`).toString('base64');

export function buildUser(user: FakeUser, urls: FakeUrls) {
  const url = `${urls.api}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeID('User', user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `https://github.com/${user.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: user.type ?? 'User',
    site_admin: false,
  };
}

export function buildLabel(label: FakeLabel, urls: FakeUrls) {
  return {
    id: label.id,
    node_id: nodeID('Label', label.id),
    url: `${urls.api}/repos/${urls.fullName}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    default: false,
    description: label.description,
  };
}

export function buildIssue(
  issue: FakeIssue,
  labels: FakeLabel[],
  urls: FakeUrls,
  detail: boolean,
  dependencies: FakeDependenciesSummary | null = null,
) {
  const url = `${urls.api}/repos/${urls.fullName}/issues/${issue.number}`;
  return {
    url,
    repository_url: `${urls.api}/repos/${urls.fullName}`,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `https://github.com/${urls.fullName}/issues/${issue.number}`,
    id: issue.id,
    node_id: nodeID('Issue', issue.id),
    number: issue.number,
    title: issue.title,
    user: buildUser(issue.user, urls),
    labels: labels.map((label) => buildLabel(label, urls)),
    state: issue.state,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: issue.comments.length,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    author_association: 'OWNER',
    active_lock_reason: null,
    body: issue.body,
    ...(issue.pull === null
      ? {}
      : {
          pull_request: {
            url: `${urls.api}/repos/${urls.fullName}/pulls/${issue.number}`,
            html_url: `https://github.com/${urls.fullName}/pull/${issue.number}`,
            merged_at: issue.pull.mergedAt,
          },
        }),
    ...(detail ? { closed_by: issue.closedBy === null ? null : buildUser(issue.closedBy, urls) } : {}),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: issue.stateReason,
    ...(dependencies === null ? {} : { issue_dependencies_summary: dependencies }),
  };
}

export function buildComment(comment: FakeComment, issueNumber: number, urls: FakeUrls) {
  return {
    url: `${urls.api}/repos/${urls.fullName}/issues/comments/${comment.id}`,
    html_url: `https://github.com/${urls.fullName}/issues/${issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${urls.api}/repos/${urls.fullName}/issues/${issueNumber}`,
    id: comment.id,
    node_id: nodeID('IssueComment', comment.id),
    user: buildUser(comment.user, urls),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt ?? comment.createdAt,
    author_association: comment.authorAssociation ?? 'OWNER',
    body: comment.body,
    performed_via_github_app: null,
  };
}

export function buildRef(ref: string, sha: string, urls: FakeUrls) {
  return {
    ref,
    node_id: Buffer.from(`0:Ref${ref}`).toString('base64'),
    url: `${urls.api}/repos/${urls.fullName}/git/${ref}`,
    object: { sha, type: 'commit', url: `${urls.api}/repos/${urls.fullName}/git/commits/${sha}` },
  };
}

export function buildRepository(
  repo: { id: number; owner: FakeUser; name: string; defaultBranch: string },
  urls: FakeUrls,
) {
  return {
    id: repo.id,
    node_id: nodeID('Repository', repo.id),
    name: repo.name,
    full_name: urls.fullName,
    private: true,
    owner: buildUser(repo.owner, urls),
    html_url: `https://github.com/${urls.fullName}`,
    description: null,
    fork: false,
    url: `${urls.api}/repos/${urls.fullName}`,
    default_branch: repo.defaultBranch,
    has_issues: true,
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
  };
}

/** GitHub's timestamps: ISO 8601 to the second. */
export function githubTimestamp(time: number): string {
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function buildPull(
  issue: FakeIssue & { pull: FakePull },
  shas: { head: string; base: string },
  urls: FakeUrls,
  mergeable: boolean | null = null,
) {
  const url = `${urls.api}/repos/${urls.fullName}/pulls/${issue.number}`;
  const branch = (ref: string, sha: string) => ({
    label: `${urls.fullName.split('/')[0]}:${ref}`,
    ref,
    sha,
    user: buildUser(issue.user, urls),
  });
  return {
    url,
    id: issue.id,
    node_id: nodeID('PullRequest', issue.id),
    html_url: `https://github.com/${urls.fullName}/pull/${issue.number}`,
    diff_url: `https://github.com/${urls.fullName}/pull/${issue.number}.diff`,
    issue_url: `${urls.api}/repos/${urls.fullName}/issues/${issue.number}`,
    number: issue.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    user: buildUser(issue.user, urls),
    body: issue.body,
    labels: [],
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    merged_at: issue.pull.mergedAt,
    draft: issue.pull.draft,
    head: branch(issue.pull.headRef, shas.head),
    base: branch(issue.pull.baseRef, shas.base),
    author_association: 'OWNER',
    merged: issue.pull.mergedAt !== null,
    mergeable,
    mergeable_state: mergeable === null ? 'unknown' : mergeable ? 'clean' : 'dirty',
  };
}

export function buildReview(review: FakeReview, pullNumber: number, urls: FakeUrls) {
  return {
    id: review.id,
    node_id: nodeID('PullRequestReview', review.id),
    user: buildUser(review.user, urls),
    body: review.body,
    state: review.state,
    html_url: `https://github.com/${urls.fullName}/pull/${pullNumber}#pullrequestreview-${review.id}`,
    pull_request_url: `${urls.api}/repos/${urls.fullName}/pulls/${pullNumber}`,
    commit_id: review.commitID,
    submitted_at: review.submittedAt,
    author_association: review.authorAssociation ?? 'OWNER',
  };
}

export function buildReviewComment(comment: FakeReviewComment, pullNumber: number, urls: FakeUrls) {
  return {
    url: `${urls.api}/repos/${urls.fullName}/pulls/comments/${comment.id}`,
    id: comment.id,
    node_id: nodeID('PullRequestReviewComment', comment.id),
    pull_request_review_id: comment.reviewID,
    path: comment.path,
    commit_id: comment.commitID,
    user: buildUser(comment.user, urls),
    body: comment.body,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    html_url: `https://github.com/${urls.fullName}/pull/${pullNumber}#discussion_r${comment.id}`,
    line: comment.line,
    side: comment.line === null ? null : 'RIGHT',
    subject_type: comment.line === null ? 'file' : 'line',
    author_association: comment.authorAssociation ?? 'OWNER',
    diff_hunk: comment.diffHunk ?? '',
    ...(comment.inReplyTo !== undefined && { in_reply_to_id: comment.inReplyTo }),
  };
}
