import type { Spec, SpecListing, SpecProblem } from '../../../domain/index.ts';
import { parseSpecFrontmatter, type SpecFrontmatter } from '../../shared/parse-spec-frontmatter.ts';
import type { SpecReader } from '../../types.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import type { GitHubRepository } from '../work-items/create-github-work-items.ts';

export interface GitHubSpecReaderOptions extends GitHubRepository {
  /** Null: the repository's default branch, asked of GitHub once. */
  defaultBranch: string | null;
  /** Relative to the repository root, e.g. `docs/specs`; `''` or `.` means the whole repository. */
  specsDir: string;
}

const SYMLINK_MODE = '120000';
const BLOB_READS_AT_ONCE = 4;

/**
 * Specs as committed on the default branch, through the git data API: the branch's ref (a conditional
 * request — a 304 when nothing was pushed, so an idle poll costs no quota and nothing else is asked), then on
 * a new head one recursive tree listing for paths and blob SHAs, then only the blobs not seen before (parsed
 * results are cached by blob SHA). Same rules as the local provider: a spec is a `.md` file (any case) under
 * `specsDir`, not a symlink; a broken frontmatter is a problem naming the file and the spec is listed as a draft.
 */
export function createGitHubSpecReader(
  octokit: GitHubOctokit,
  options: GitHubSpecReaderOptions,
): SpecReader & { defaultBranch(): Promise<string> } {
  const { owner, repo } = options;
  const specsDir = options.specsDir.replace(/^\.\/?/, '').replace(/\/+$/, '');
  const parsed = new Map<string, SpecFrontmatter>();
  let listed: { commit: string; listing: SpecListing } | null = null;
  let defaultBranch: Promise<string> | null =
    options.defaultBranch === null ? null : Promise.resolve(options.defaultBranch);

  function branch(): Promise<string> {
    defaultBranch ??= octokit.rest.repos.get({ owner, repo }).then(({ data }) => data.default_branch);
    return defaultBranch;
  }

  async function getDefaultBranchSHA(): Promise<string> {
    const name = await branch();
    const { data } = await octokit.rest.git.getRef({ owner, repo, ref: `heads/${name}` }).catch((error) => {
      throw new Error(`Default branch ${name} not found in ${owner}/${repo}`, { cause: error });
    });
    return data.object.sha;
  }

  async function readSpecBlob(blobSHA: string): Promise<string> {
    try {
      const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: blobSHA });
      return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
    } catch (error) {
      const status = httpStatusOf(error);
      if (status !== 404 && status !== 422) throw error;
      throw new Error(`Blob ${blobSHA} not found in ${owner}/${repo}`, { cause: error });
    }
  }

  async function frontmatterOf(blobSHA: string): Promise<SpecFrontmatter> {
    const known = parsed.get(blobSHA);
    if (known !== undefined) return known;
    const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: blobSHA });
    const content = Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8').toString(
      'utf8',
    );
    const frontmatter = parseSpecFrontmatter(content);
    parsed.set(blobSHA, frontmatter);
    return frontmatter;
  }

  return {
    defaultBranch: branch,
    getDefaultBranchSHA,
    readSpecBlob,
    async listSpecs() {
      const commit = await getDefaultBranchSHA();
      if (listed?.commit === commit) return listed.listing;
      // A commit SHA names its tree here, so the commit object itself is never fetched.
      const { data: tree } = await octokit.rest.git.getTree({
        owner,
        repo,
        tree_sha: commit,
        recursive: '1',
      });
      if (tree.truncated) {
        throw new Error(
          `${owner}/${repo}: the tree of ${commit} is too large for one listing (GitHub truncated it); specs cannot be listed`,
        );
      }
      const blobs = tree.tree.flatMap((entry) =>
        entry.type === 'blob' &&
        entry.mode !== SYMLINK_MODE &&
        entry.path !== undefined &&
        entry.sha !== undefined &&
        entry.path.toLowerCase().endsWith('.md') &&
        (specsDir === '' || entry.path.startsWith(`${specsDir}/`))
          ? [{ filePath: entry.path, blobSHA: entry.sha }]
          : [],
      );
      const specs: Spec[] = [];
      const problems: SpecProblem[] = [];
      for (let start = 0; start < blobs.length; start += BLOB_READS_AT_ONCE) {
        const batch = blobs.slice(start, start + BLOB_READS_AT_ONCE);
        const frontmatters = await Promise.all(batch.map((blob) => frontmatterOf(blob.blobSHA)));
        batch.forEach((blob, index) => {
          const frontmatter = frontmatters[index] as SpecFrontmatter;
          specs.push({ ...blob, frontmatterStatus: frontmatter.status });
          if (frontmatter.problem !== null)
            problems.push({ filePath: blob.filePath, message: frontmatter.problem });
        });
      }
      listed = { commit, listing: { specs, problems } };
      return listed.listing;
    },
  };
}
