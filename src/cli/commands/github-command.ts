import type { Command } from 'commander';
import { CliError } from '../support/cli-error.ts';
import { findRepoRoot } from '../support/find-repo-root.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { writeJson } from '../support/write-json.ts';

/**
 * `flotilla github setup-labels|check`: the repository side of `provider: "github"` — the label set created
 * or updated idempotently, and the token, access, labels and rate-limit budget checked (as `flotilla doctor`
 * does among its other checks).
 */
export function registerGitHubCommand(program: Command): void {
  const github = program
    .command('github')
    .description(
      'set up and check the GitHub repository of `provider: "github"` (labels, token, access, quota)',
    );
  github
    .command('setup-labels')
    .description(
      "create or update Flotilla's labels on the repository (status:*, task:*, priority:*, complexity:*); idempotent",
    )
    .option('--json', 'print { created, updated, unchanged }')
    .action(
      runCliAction('github setup-labels', async (options: { json?: boolean }) => {
        const admin = await openAdmin();
        const outcome = await admin.setupLabels();
        if (options.json) return writeJson(outcome);
        process.stdout.write(
          `labels: ${outcome.created.length} created, ${outcome.updated.length} updated, ${outcome.unchanged.length} already right\n` +
            outcome.created.map((name) => `  created ${name}\n`).join('') +
            outcome.updated.map((name) => `  updated ${name}\n`).join(''),
        );
      }),
    );
  github
    .command('setup-webhook')
    .description(
      `create (or update) the repository hook that delivers Flotilla's events to \`flotilla run --serve\`: content type json, signed with FLOTILLA_GITHUB_WEBHOOK_SECRET`,
    )
    .requiredOption(
      '--url <url>',
      'where GitHub reaches flotilla run --serve, e.g. https://flotilla.example.com/webhooks/github',
    )
    .option('--json', 'print { id, created, events }')
    .action(
      runCliAction('github setup-webhook', async (options: { url: string; json?: boolean }) => {
        if (!/^https?:\/\/[^/\s]+/.test(options.url)) {
          throw new CliError(
            `--url "${options.url}" is not an http(s) URL; expected e.g. https://flotilla.example.com/webhooks/github`,
            {
              exitCode: 2,
            },
          );
        }
        const secret = process.env.FLOTILLA_GITHUB_WEBHOOK_SECRET ?? '';
        if (secret === '') {
          throw new CliError(
            'FLOTILLA_GITHUB_WEBHOOK_SECRET is not set: GitHub signs every delivery with it and `flotilla run --serve` refuses unsigned ones; generate one (e.g. `openssl rand -hex 32`) and export it here and where flotilla run runs',
            { exitCode: 2 },
          );
        }
        const admin = await openAdmin();
        if (admin.setupWebhook === undefined)
          throw new CliError('this provider has no webhooks', { exitCode: 2 });
        const outcome = await admin.setupWebhook({ url: options.url, secret });
        if (options.json) return writeJson(outcome);
        process.stdout.write(
          `webhook ${outcome.created ? 'created' : 'updated'} (hook ${outcome.id}): ${options.url} gets ${outcome.events.join(', ')}\n`,
        );
      }),
    );
  github
    .command('check')
    .description('check the token, repository access and permissions, labels and the rate-limit budget')
    .option('--json', 'print the checks as JSON')
    .action(
      runCliAction('github check', async (options: { json?: boolean }) => {
        const { repoRoot, config, provider, settings } = await loadSetupProvider();
        const checks = await provider.checkTracker({
          repoRoot,
          defaultBranch: config.defaultBranch,
          specsDir: config.specsDir,
          checks: config.checks,
          env: process.env,
          settings,
        });
        const ok = checks.every((check) => check.status !== 'fail');
        if (options.json) writeJson({ ok, checks });
        else {
          for (const check of checks) {
            process.stdout.write(
              `${check.status === 'ok' ? '✓' : check.status === 'warn' ? '!' : '✗'} ${check.message}\n`,
            );
            for (const line of check.fix) process.stdout.write(`    ${line}\n`);
          }
        }
        return ok ? 0 : 1;
      }),
    );
}

/**
 * The configured provider when it is one these commands set up (it has the label-setup capability): its
 * descriptor (src/providers/registry.ts), config block and the loaded config.
 */
async function loadSetupProvider() {
  const repoRoot = await findRepoRoot(process.cwd());
  if (repoRoot === null) {
    throw new CliError(`${process.cwd()} is not inside a git repository; cd into your project`, {
      exitCode: 2,
    });
  }
  const { loadConfig } = await import('../../config/load-config.ts');
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) {
    throw new CliError(`invalid configuration in ${loaded.path}; fix these and retry:`, {
      exitCode: 2,
      details: loaded.errors,
    });
  }
  const { findProvider, providerSettingsOf } = await import('../../providers/registry.ts');
  const provider = findProvider(loaded.config.provider);
  const settings = provider === undefined ? undefined : providerSettingsOf(provider, loaded.config);
  if (provider?.openLabelSetup === undefined || settings === undefined) {
    // This command group is the label-setup capability's front; today only GitHub has it.
    throw new CliError(
      'flotilla.config.json: provider is not github; `flotilla init --provider github --owner OWNER --repo REPO` writes it',
      { exitCode: 2 },
    );
  }
  return { repoRoot, config: loaded.config, provider, settings };
}

async function openAdmin() {
  const { provider, settings } = await loadSetupProvider();
  const openLabelSetup = provider.openLabelSetup;
  if (openLabelSetup === undefined) throw new Error('loadSetupProvider returned a provider without setup');
  try {
    return await openLabelSetup.call(provider, settings, process.env);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), { exitCode: 2 });
  }
}
