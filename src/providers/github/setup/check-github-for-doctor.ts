import { silentLogger } from '../../../logging/logger.ts';
import { messageOf } from '../../../shared/message-of.ts';
import type { ProviderDoctorCheck as DoctorCheck } from '../../provider-descriptor.ts';
import { GitHubCredentialsRejectedError } from '../client/github-credentials-rejected-error.ts';
import type { GitHubProviderSettings } from '../github-config-schema.ts';
import { createGitHubAdmin } from './create-github-admin.ts';
import { describeGitHubQuota } from './describe-github-quota.ts';
import { describeGitHubWebhook, WEBHOOK_PATH } from './setup-github-webhook.ts';

/**
 * `flotilla doctor` on `provider: "github"`: the token (from the environment), the repository's access and
 * permissions, the label set, and the rate-limit budget. Never throws for a user problem.
 */
export async function checkGitHubForDoctor(
  github: GitHubProviderSettings,
  defaultBranch: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DoctorCheck[]> {
  const where = `${github.owner}/${github.repo}`;
  let admin: ReturnType<typeof createGitHubAdmin>;
  try {
    admin = createGitHubAdmin({ ...github, env, logger: silentLogger });
  } catch (error) {
    return [{ name: 'github-token', status: 'fail', message: messageOf(error), fix: [] }];
  }
  let report: Awaited<ReturnType<typeof admin.check>>;
  try {
    report = await admin.check();
  } catch (error) {
    // One cheap authenticated call (GET /user) comes first: a fake or revoked token is named here.
    if (error instanceof GitHubCredentialsRejectedError) {
      return [{ name: 'github-token', status: 'fail', message: error.message, fix: [] }];
    }
    return [
      {
        name: 'github-access',
        status: 'fail',
        message: `cannot reach ${where} on GitHub: ${messageOf(error)}`,
        fix: [
          'check github.owner / github.repo (and github.apiUrl for GitHub Enterprise Server) in flotilla.config.json',
          'and that the token can see the repository',
        ],
      },
    ];
  }
  const checks: DoctorCheck[] = [
    {
      name: 'github-token',
      status: 'ok',
      message: `GitHub credentials from ${report.tokenVariable}: ${report.login}${report.scopes === null ? '' : ` (scopes: ${report.scopes.join(', ') || 'none'})`}`,
      fix: [],
    },
    report.missingPermissions.length === 0
      ? {
          name: 'github-access',
          status: 'ok',
          message: `${where}: reachable, write access${report.permissions === null ? ' (not reported; assumed)' : ''}, default branch ${report.defaultBranch}`,
          fix: [],
        }
      : {
          name: 'github-access',
          status: 'fail',
          message: `${where}: the token lacks ${report.missingPermissions.join('; ')}`,
          fix: [
            'Flotilla writes issues, labels and pull requests and pushes revision branches: give the token repository write access (classic: the repo scope; fine-grained: contents, issues and pull requests read/write)',
          ],
        },
  ];
  checks.push(describeIdentities(report));
  if (report.defaultBranch !== defaultBranch) {
    checks.push({
      name: 'github-branch',
      status: 'warn',
      message: `the local default branch is ${defaultBranch}, GitHub's is ${report.defaultBranch}`,
      fix: [`set "defaultBranch": "${report.defaultBranch}" in flotilla.config.json`],
    });
  }
  const labelProblems = [...report.missingLabels, ...report.differingLabels];
  checks.push(
    labelProblems.length === 0
      ? { name: 'github-labels', status: 'ok', message: `${where}: Flotilla's labels are set up`, fix: [] }
      : {
          name: 'github-labels',
          status: 'warn',
          message: `${where}: ${report.missingLabels.length} label(s) missing, ${report.differingLabels.length} differing (GitHub creates missing ones grey on first use)`,
          fix: ['`flotilla github setup-labels` creates and updates them'],
        },
  );
  if (report.webhooks !== null) checks.push(describeWebhookCheck(report.webhooks, where));
  checks.push({
    name: 'github-quota',
    status: report.quota.core !== null && report.quota.core.remaining === 0 ? 'warn' : 'ok',
    message: `GitHub rate limit: ${describeGitHubQuota(report.quota)}`,
    fix: [],
  });
  return checks;
}

/** With webhooks configured (their secret set): Flotilla's hook exists, is active and has every event. */
function describeWebhookCheck(
  webhooks: NonNullable<Awaited<ReturnType<ReturnType<typeof createGitHubAdmin>['check']>>['webhooks']>,
  where: string,
): DoctorCheck {
  const setup = `\`flotilla github setup-webhook --url https://<where flotilla run --serve is reachable>${WEBHOOK_PATH}\` creates or fixes it`;
  if ('error' in webhooks) {
    return {
      name: 'github-webhook',
      status: 'warn',
      message: `${where}: cannot list the repository's hooks (${webhooks.error})`,
      fix: [
        "listing and creating hooks needs admin rights on the repository (fine-grained token: 'Webhooks' read/write)",
      ],
    };
  }
  const verdict = describeGitHubWebhook(webhooks.hooks);
  return {
    name: 'github-webhook',
    status: verdict.status,
    message: `${where}: ${verdict.message}`,
    fix: verdict.status === 'ok' ? [] : [setup],
  };
}

/** Who opens pull requests and who reviews them; one identity for both works, with a warning saying how. */
function describeIdentities(
  report: Awaited<ReturnType<ReturnType<typeof createGitHubAdmin>['check']>>,
): DoctorCheck {
  const opener = `pull requests are opened by ${report.login} (${report.tokenVariable})`;
  if (report.reviewer !== null && report.reviewer.login !== report.login) {
    return {
      name: 'github-identities',
      status: 'ok',
      message: `${opener}; reviews are posted by ${report.reviewer.login} (${report.reviewer.source})`,
      fix: [],
    };
  }
  return {
    name: 'github-identities',
    status: 'warn',
    message:
      `${opener}; reviews are posted by the same account` +
      (report.reviewer === null ? '' : ` (${report.reviewer.source} is ${report.reviewer.login} too)`) +
      ": GitHub refuses an author's approval, so the reviewer's verdicts go out as COMMENT reviews and the issue's status label carries them",
    fix: [
      "for real approvals (e.g. branch protection requiring an approving review), set FLOTILLA_GITHUB_REVIEWER_TOKEN to a second account's token, or FLOTILLA_GITHUB_REVIEWER_APP_ID, _PRIVATE_KEY (or _PRIVATE_KEY_FILE) and _INSTALLATION_ID to a second GitHub App",
    ],
  };
}
