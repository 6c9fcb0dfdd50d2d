import type { GitHubOctokit } from '../client/create-github-client.ts';

export interface GitHubRepository {
  owner: string;
  repo: string;
}

/** An issue as `GET issues/{n}` returns it, and as a listing page does. */
export type Issue = Awaited<ReturnType<GitHubOctokit['rest']['issues']['get']>>['data'];
export type ListedIssue = Awaited<ReturnType<GitHubOctokit['rest']['issues']['listForRepo']>>['data'][number];
