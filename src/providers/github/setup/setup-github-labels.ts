import type { GitHubOctokit } from '../client/create-github-client.ts';
import { buildGitHubLabelSet, type GitHubLabelSpec } from './build-github-label-set.ts';

export interface GitHubLabelsOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
}

interface ExistingLabel {
  name: string;
  color: string;
  description: string | null;
}

/** The repository's labels, every page. */
export async function listGitHubLabels(
  octokit: GitHubOctokit,
  repository: { owner: string; repo: string },
): Promise<ExistingLabel[]> {
  return octokit.paginate(octokit.rest.issues.listLabelsForRepo, { ...repository, per_page: 100 });
}

/** What the label set lacks on the repository, and what differs (colour or description), by name. */
export function diffGitHubLabels(
  existing: readonly ExistingLabel[],
  wanted: readonly GitHubLabelSpec[] = buildGitHubLabelSet(),
): { missing: GitHubLabelSpec[]; differing: GitHubLabelSpec[]; unchanged: GitHubLabelSpec[] } {
  const byName = new Map(existing.map((label) => [label.name, label]));
  const missing: GitHubLabelSpec[] = [];
  const differing: GitHubLabelSpec[] = [];
  const unchanged: GitHubLabelSpec[] = [];
  for (const label of wanted) {
    const found = byName.get(label.name);
    if (found === undefined) missing.push(label);
    else if (found.color.toLowerCase() !== label.color || (found.description ?? '') !== label.description)
      differing.push(label);
    else unchanged.push(label);
  }
  return { missing, differing, unchanged };
}

/**
 * `flotilla github setup-labels`: creates the missing labels of the set and updates the ones whose colour or
 * description differ; labels already right (and every other label) are left alone, so a second run writes
 * nothing.
 */
export async function setupGitHubLabels(
  octokit: GitHubOctokit,
  repository: { owner: string; repo: string },
): Promise<GitHubLabelsOutcome> {
  const { missing, differing, unchanged } = diffGitHubLabels(await listGitHubLabels(octokit, repository));
  for (const label of missing) await octokit.rest.issues.createLabel({ ...repository, ...label });
  for (const label of differing) {
    await octokit.rest.issues.updateLabel({
      ...repository,
      name: label.name,
      color: label.color,
      description: label.description,
    });
  }
  return {
    created: missing.map((label) => label.name),
    updated: differing.map((label) => label.name),
    unchanged: unchanged.map((label) => label.name),
  };
}
