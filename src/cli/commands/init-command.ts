import type { Command } from 'commander';
import { findRepoRoot } from '../support/find-repo-root.ts';
import type { ScaffoldEntry } from './init-command-scaffold.ts';
import { SCRIPTED_SCENARIO_PATH } from './init-command-scripted-scenario.ts';

interface InitOptions {
  force?: boolean;
  scripted?: boolean;
  provider?: string;
  owner?: string;
  repo?: string;
  apiUrl?: string | undefined;
}

/**
 * `flotilla init [--force] [--scripted]`: scaffolds the config, the three agent definitions, `.claude/CLAUDE.md`, an
 * example draft spec and the `.gitignore` entries at the root of the current git repository. One line per
 * file (created / kept / updated); existing files are kept unless --force, and the config composes with what
 * is there (init-command-scaffold.ts). `--scripted` sets every role's runtime to `scripted` and writes a
 * sample scenario, for a dry run without an API key. Then the next steps,
 * naming the files to commit (`git commit -a` would skip them: they are new). Exit 2 outside a git repository.
 */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'scaffold flotilla.config.json, .claude/agents/{planner,implementor,reviewer}.md, .claude/CLAUDE.md, docs/specs/ and .gitignore entries in the current git repository',
    )
    .option(
      '--force',
      'overwrite generated files that differ from the defaults (.claude/CLAUDE.md is never overwritten); in flotilla.config.json only add the missing defaults — your settings are kept',
    )
    .option(
      '--scripted',
      `dry run without an API key: every role runs the real SDK against a sample scenario (${SCRIPTED_SCENARIO_PATH}) on 127.0.0.1`,
    )
    .option('--provider <provider>', 'where work items and revisions live: local (default) or github')
    .option(
      '--owner <owner>',
      'with --provider github: the repository owner (default: from the origin remote)',
    )
    .option('--repo <repo>', 'with --provider github: the repository name (default: from the origin remote)')
    .option('--api-url <url>', 'with --provider github: the REST API root (GitHub Enterprise Server)')
    .action(async (options: InitOptions) => {
      const repoRoot = await findRepoRoot(process.cwd());
      if (repoRoot === null) {
        process.stderr.write(
          `flotilla init: ${process.cwd()} is not inside a git repository; run 'git init' first, or cd into your repository\n`,
        );
        process.exitCode = 2;
        return;
      }
      const scripted = options.scripted === true;
      const github = await resolveGitHubRepository(repoRoot, options);
      if (typeof github === 'string') {
        process.stderr.write(`flotilla init: ${github}\n`);
        process.exitCode = 2;
        return;
      }
      // Loaded on use: the scaffold pulls in the config schema (zod), which `--help` need not pay for.
      const { scaffoldRepository } = await import('./init-command-scaffold.ts');
      const entries = await scaffoldRepository(repoRoot, {
        force: options.force === true,
        scripted,
        ...(github !== null && { github }),
        ...(options.provider === 'local' && { provider: 'local' as const }),
      });
      const width = Math.max(...entries.map((entry) => entry.action.length));
      for (const entry of entries) {
        process.stdout.write(`${entry.action.padEnd(width)}  ${entry.path}\n`);
        if (entry.note !== undefined) process.stdout.write(`${' '.repeat(width)}  ! ${entry.note}\n`);
      }
      process.stdout.write(`\n${buildNextSteps(entries, scripted).join('\n')}\n`);
      if (github !== null) {
        process.stdout.write(
          `\nGitHub (${github.owner}/${github.repo}): export FLOTILLA_GITHUB_TOKEN=… (a token with repository write access; never put it in the config), then \`flotilla github setup-labels\` and \`flotilla doctor\`. Specs are read from GitHub's default branch: push them.\n`,
        );
      }
      process.exitCode = 0;
    });
}

/**
 * `--provider github`: the repository from --owner/--repo, else from the origin remote's GitHub URL; a
 * message (usage error) when neither says; null for the local provider.
 */
async function resolveGitHubRepository(
  repoRoot: string,
  options: InitOptions,
): Promise<{ owner: string; repo: string; apiUrl?: string } | null | string> {
  const provider = options.provider ?? 'local';
  if (provider === 'local') {
    if (options.owner !== undefined || options.repo !== undefined || options.apiUrl !== undefined)
      return '--owner, --repo and --api-url go with --provider github';
    return null;
  }
  if (provider !== 'github') return `unknown --provider '${provider}'; expected local or github`;
  let owner = options.owner;
  let repo = options.repo;
  if (owner === undefined || repo === undefined) {
    const { runGit } = await import('../../process/run-command.ts');
    const remote = await runGit(['remote', 'get-url', 'origin'], { cwd: repoRoot, okExitCodes: [0, 2, 128] });
    const match = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(remote.stdout.trim());
    owner ??= match?.[1];
    repo ??= match?.[2];
  }
  if (owner === undefined || repo === undefined || owner === '' || repo === '') {
    return '--provider github needs the repository: give --owner OWNER --repo REPO (no GitHub origin remote to read them from)';
  }
  return { owner, repo, ...(options.apiUrl !== undefined && { apiUrl: options.apiUrl }) };
}

/**
 * What to do after init, naming exactly what to commit: the files init created or changed (new files, so
 * `git commit -a` would skip them) and the specs directory, where the user's spec goes.
 */
function buildNextSteps(entries: readonly ScaffoldEntry[], scripted: boolean): string[] {
  const written = entries
    .filter((entry) => entry.action !== 'kept' && !entry.path.startsWith('docs/specs/'))
    .map((entry) => entry.path);
  const claudeFiles = entries.filter((entry) => entry.path.startsWith('.claude/'));
  // Everything under .claude/ is new: name the directory rather than four files.
  const collapsed = claudeFiles.every((entry) => entry.action !== 'kept')
    ? [...written.filter((path) => !path.startsWith('.claude/')), '.claude/']
    : written;
  const toAdd = [...collapsed, 'docs/specs/'];
  return [
    'Next:',
    "  1. Write a spec in docs/specs/ (frontmatter 'status: approved'; docs/specs/example.md shows the shape).",
    '  2. Commit it with the files above — specs are read from the default branch, and `git commit -a` skips new files:',
    `       git add ${toAdd.join(' ')} && git commit -m "Add Flotilla and a first spec"`,
    scripted
      ? `  3. flotilla run --until-idle   (dry run: the agents answer from ${SCRIPTED_SCENARIO_PATH}, no API key needed)`
      : '  3. export ANTHROPIC_API_KEY=…, check with `flotilla doctor`, then `flotilla run`   (no key? a dry run: `flotilla init --scripted`, which keeps your other settings)',
    'Every setting and its default: src/config/README.md in the Flotilla repository.',
  ];
}
