import type { ProviderInit } from '../../provider-descriptor.ts';

/**
 * `flotilla init --provider github`: the repository from --owner/--repo, else from the origin remote's URL
 * (`git@github.com:OWNER/REPO.git`, `https://HOST/OWNER/REPO`), and --api-url for GitHub Enterprise Server.
 * The token is never written: the next steps say where it goes.
 */
export const githubProviderInit: ProviderInit = {
  flags: [
    {
      flags: '--owner <owner>',
      key: 'owner',
      description: 'with --provider github: the repository owner (default: from the origin remote)',
    },
    {
      flags: '--repo <repo>',
      key: 'repo',
      description: 'with --provider github: the repository name (default: from the origin remote)',
    },
    {
      flags: '--api-url <url>',
      key: 'apiUrl',
      description: 'with --provider github: the REST API root (GitHub Enterprise Server)',
    },
  ],
  async buildBlock(repoRoot, given) {
    let owner = given.owner;
    let repo = given.repo;
    if (owner === undefined || repo === undefined) {
      const { runGit } = await import('../../../process/run-command.ts');
      const remote = await runGit(['remote', 'get-url', 'origin'], {
        cwd: repoRoot,
        okExitCodes: [0, 2, 128],
      });
      const match = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(remote.stdout.trim());
      owner ??= match?.[1];
      repo ??= match?.[2];
    }
    if (owner === undefined || repo === undefined || owner === '' || repo === '') {
      return '--provider github needs the repository: give --owner OWNER --repo REPO (no GitHub origin remote to read them from)';
    }
    return { owner, repo, ...(given.apiUrl !== undefined && { apiUrl: given.apiUrl }) };
  },
  nextSteps: (block) =>
    `GitHub (${String(block.owner)}/${String(block.repo)}): export FLOTILLA_GITHUB_TOKEN=… (a token with repository write access; never put it in the config), then \`flotilla github setup-labels\` and \`flotilla doctor\`. Specs are read from GitHub's default branch: push them.`,
};
