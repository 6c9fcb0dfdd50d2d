import type { ItemLinks, ProviderDescriptor } from '../provider-descriptor.ts';
import { type GitHubProviderSettings, githubConfigSchema } from './github-config-schema.ts';
import { githubProviderInit } from './setup/github-provider-init.ts';

const NAME = 'github';

/** The issues' pages: github.com's, or `OWNER/REPO#12` on another server (GitHub Enterprise, a fake). */
function buildLinks(settings: GitHubProviderSettings): ItemLinks {
  const { owner, repo } = settings;
  const onGitHubCom = settings.apiUrl === undefined;
  return {
    site: 'GitHub',
    itemUrl: (id) =>
      onGitHubCom ? `https://github.com/${owner}/${repo}/issues/${id}` : `${owner}/${repo}#${id}`,
    itemsUrl: onGitHubCom
      ? `https://github.com/${owner}/${repo}/issues`
      : `${owner}/${repo} issues on GitHub`,
  };
}

/**
 * The GitHub provider: issues, pull requests, GitHub's checks and the default branch's specs, configured by
 * the `github` block; credentials come from the environment, never the config file. Octokit loads on use.
 */
export const githubProvider: ProviderDescriptor<GitHubProviderSettings> = {
  name: NAME,
  summary: 'issues, pull requests and checks on GitHub (the `github` block; token from the environment)',
  config: { schema: githubConfigSchema, expected: '{ owner, repo }' },
  tracksLocally: false,
  async create(context, settings) {
    const { createGitHubProvider } = await import('./create-github-provider.ts');
    const mergeMethod = context.mergeMethod ?? settings.mergeMethod;
    const provider = createGitHubProvider({
      owner: settings.owner,
      repo: settings.repo,
      ...(settings.apiUrl !== undefined && { apiUrl: settings.apiUrl }),
      ...(settings.gitUrl !== undefined && { gitUrl: settings.gitUrl }),
      specsDir: context.specsDir,
      defaultBranch: context.defaultBranch,
      scratchDir: context.scratchDir,
      repoRoot: context.repoRoot,
      noChecksGraceSeconds: settings.noChecksGrace,
      mergeMethod,
      answerAuthorAssociations: settings.answerAuthorAssociations,
      mentionTrigger: settings.mentionTrigger,
      env: context.env,
      logger: context.logger,
      client: { quota: { writeIntervalMs: settings.writeIntervalMs } },
    });
    // Nothing to release; CI runs on GitHub, nothing to wait for.
    return {
      ...provider,
      name: NAME,
      close: async () => {},
      runPendingChecks: async () => {},
      mergeMethod,
    };
  },
  links: buildLinks,
  init: githubProviderInit,
  async checkTracker(input) {
    // Specs come from GitHub's default branch; the checks that matter are the token, access and labels.
    const { checkGitHubForDoctor } = await import('./setup/check-github-for-doctor.ts');
    return checkGitHubForDoctor(input.settings, input.defaultBranch, input.env);
  },
  checkChecks: async () => ({
    name: 'checks',
    status: 'ok',
    message: "checks are the pull requests' CI on GitHub (check runs and commit statuses)",
    fix: [],
  }),
  async openLabelSetup(settings, env) {
    const { createGitHubAdmin } = await import('./setup/create-github-admin.ts');
    const { silentLogger } = await import('../../logging/logger.ts');
    return createGitHubAdmin({ ...settings, env, logger: silentLogger });
  },
  async openWebhooks(settings, env, logger) {
    const path = `/webhooks/${NAME}`;
    const { MAX_WEBHOOK_BODY_BYTES, WEBHOOK_SECRET_VARIABLE, createGitHubWebhookReceiver } = await import(
      './webhooks/create-github-webhook-receiver.ts'
    );
    const secret = env[WEBHOOK_SECRET_VARIABLE] ?? '';
    if (secret === '') {
      return {
        path,
        off: `GitHub webhooks off (set ${WEBHOOK_SECRET_VARIABLE} to receive them)`,
        maxBodyBytes: MAX_WEBHOOK_BODY_BYTES,
      };
    }
    const receiver = createGitHubWebhookReceiver({
      secret,
      owner: settings.owner,
      repo: settings.repo,
      logger,
    });
    return { path, receiver, off: '', maxBodyBytes: MAX_WEBHOOK_BODY_BYTES };
  },
  unsupported: {
    'branches prune':
      'with provider github, revision branches live on GitHub: see its pull requests (`flotilla work show <id>` names each one)',
  },
};
