import { buildRef } from './build-fake-github-resources.ts';
import { type FakeGitHubStore, type FakeRoute, HttpError, ok, route } from './create-fake-github-store.ts';

/**
 * Git data: refs, trees and blobs of the real bare repository.
 */
export function buildFakeGitRoutes(store: FakeGitHubStore): FakeRoute[] {
  const { repoPath, git, urls } = store;
  return [
    route('GET', `${repoPath}/git/ref/(heads/.+)`, async ([ref = '']) => {
      const sha = await git.resolveCommit(`refs/${ref}`);
      if (sha === null) throw new HttpError(404, 'Not Found');
      return ok(buildRef(`refs/${ref}`, sha, urls()));
    }),
    route('GET', `${repoPath}/git/trees/(.+)`, async ([name = ''], query) => {
      const recursive = query.has('recursive') && !['0', 'false'].includes(query.get('recursive') ?? '');
      const tree = await git.readTree(name, recursive);
      if (tree === null) throw new HttpError(404, 'Not Found');
      return ok({
        sha: tree.sha,
        url: `${urls().api}${repoPath}/git/trees/${tree.sha}`,
        tree: tree.entries.map((entry) => ({
          path: entry.path,
          mode: entry.mode,
          type: entry.type,
          sha: entry.sha,
          ...(entry.size === null ? {} : { size: entry.size }),
          url: `${urls().api}${repoPath}/git/${entry.type}s/${entry.sha}`,
        })),
        truncated: false,
      });
    }),
    route('GET', `${repoPath}/git/blobs/([0-9a-f]{40})`, async ([sha = '']) => {
      const bytes = await git.readBlob(sha);
      if (bytes === null) throw new HttpError(404, 'Not Found');
      return ok({
        sha,
        node_id: Buffer.from(`0:Blob${sha}`).toString('base64'),
        size: bytes.length,
        url: `${urls().api}${repoPath}/git/blobs/${sha}`,
        // GitHub wraps the base64 at 60 characters.
        content: `${(bytes.toString('base64').match(/.{1,60}/g) ?? []).join('\n')}\n`,
        encoding: 'base64',
      });
    }),
  ];
}
