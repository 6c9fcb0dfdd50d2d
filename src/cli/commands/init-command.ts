import type { Command } from 'commander';
import type { ProviderInitFlag } from '../../providers/provider-descriptor.ts';
import { findProvider, PROVIDER_REGISTRY } from '../../providers/registry.ts';
import { findRepoRoot } from '../support/find-repo-root.ts';
import type { ScaffoldEntry } from './init-command-scaffold.ts';
import { SCRIPTED_SCENARIO_PATH } from './init-command-scripted-scenario.ts';

interface InitOptions {
  force?: boolean;
  scripted?: boolean;
  provider?: string;
  /** The providers' own flags (`ProviderInit.flags`), by key. */
  [flag: string]: string | boolean | undefined;
}

/** The provider init writes (`--provider`): its name, and the block its flags make, with what to do next. */
interface ChosenProvider {
  name: string;
  block?: Record<string, unknown>;
  nextSteps?: string;
}

const PROVIDER_NAMES = PROVIDER_REGISTRY.map((provider) => provider.name);

/**
 * `flotilla init [--force] [--scripted]`: scaffolds the config, the three agent definitions, `.claude/CLAUDE.md`, an
 * example draft spec and the `.gitignore` entries at the root of the current git repository. One line per
 * file (created / kept / updated); existing files are kept unless --force, and the config composes with what
 * is there (init-command-scaffold.ts). `--scripted` sets every role's runtime to `scripted` and writes a
 * sample scenario, for a dry run without an API key. Then the next steps,
 * naming the files to commit (`git commit -a` would skip them: they are new). Exit 2 outside a git repository.
 */
export function registerInitCommand(program: Command): void {
  const command = program
    .command('init')
    .description(
      'scaffold flotilla.config.json, .claude/agents/{planner,implementor,reviewer,investigate,refine}.md, .claude/CLAUDE.md, docs/specs/ and .gitignore entries in the current git repository',
    )
    .option(
      '--force',
      'overwrite generated files that differ from the defaults (.claude/CLAUDE.md is never overwritten); in flotilla.config.json only add the missing defaults — your settings are kept',
    )
    .option(
      '--scripted',
      `dry run without an API key: every role runs the real SDK against a sample scenario (${SCRIPTED_SCENARIO_PATH}) on 127.0.0.1`,
    )
    .option(
      '--provider <provider>',
      `where work items and revisions live: ${PROVIDER_NAMES[0]} (default) or ${PROVIDER_NAMES.slice(1).join(' or ')}`,
    );
  // Each provider's own flags (src/providers/registry.ts: a descriptor's `init`).
  for (const provider of PROVIDER_REGISTRY) {
    for (const flag of provider.init?.flags ?? []) command.option(flag.flags, flag.description);
  }
  command.action(async (options: InitOptions) => {
    const repoRoot = await findRepoRoot(process.cwd());
    if (repoRoot === null) {
      process.stderr.write(
        `flotilla init: ${process.cwd()} is not inside a git repository; run 'git init' first, or cd into your repository\n`,
      );
      process.exitCode = 2;
      return;
    }
    const scripted = options.scripted === true;
    const provider = await resolveProvider(repoRoot, options);
    if (typeof provider === 'string') {
      process.stderr.write(`flotilla init: ${provider}\n`);
      process.exitCode = 2;
      return;
    }
    // Loaded on use: the scaffold pulls in the config schema (zod), which `--help` need not pay for.
    const { scaffoldRepository } = await import('./init-command-scaffold.ts');
    const entries = await scaffoldRepository(repoRoot, {
      force: options.force === true,
      scripted,
      ...(provider !== null && {
        provider: { name: provider.name, ...(provider.block !== undefined && { block: provider.block }) },
      }),
    });
    const width = Math.max(...entries.map((entry) => entry.action.length));
    for (const entry of entries) {
      process.stdout.write(`${entry.action.padEnd(width)}  ${entry.path}\n`);
      if (entry.note !== undefined) process.stdout.write(`${' '.repeat(width)}  ! ${entry.note}\n`);
    }
    process.stdout.write(`\n${buildNextSteps(entries, scripted).join('\n')}\n`);
    if (provider?.nextSteps !== undefined) process.stdout.write(`\n${provider.nextSteps}\n`);
    process.exitCode = 0;
  });
}

/**
 * `--provider <name>` (default: the registry's first, which init then leaves as the config has it): the
 * provider, with the config block its own flags make (`ProviderInit.buildBlock`); a message (usage error) for
 * an unknown name, another provider's flags, or a block its flags cannot make; null: keep the config's.
 */
async function resolveProvider(
  repoRoot: string,
  options: InitOptions,
): Promise<ChosenProvider | null | string> {
  const name = options.provider ?? PROVIDER_NAMES[0] ?? '';
  const descriptor = findProvider(name);
  if (descriptor === undefined)
    return `unknown --provider '${name}'; expected ${PROVIDER_NAMES.join(' or ')}`;
  const given = (flags: readonly ProviderInitFlag[]) =>
    Object.fromEntries(flags.map((flag) => [flag.key, stringOption(options[flag.key])]));
  for (const other of PROVIDER_REGISTRY) {
    const flags = other.init?.flags ?? [];
    if (other.name === name || !Object.values(given(flags)).some((value) => value !== undefined)) continue;
    return `${joinFlags(flags)} go with --provider ${other.name}`;
  }
  if (descriptor.init === undefined) return options.provider === undefined ? null : { name };
  const block = await descriptor.init.buildBlock(repoRoot, given(descriptor.init.flags));
  if (typeof block === 'string') return block;
  return { name, block, nextSteps: descriptor.init.nextSteps(block) };
}

function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `--owner, --repo and --api-url`. */
function joinFlags(flags: readonly ProviderInitFlag[]): string {
  const names = flags.map((flag) => flag.flags.split(' ')[0] ?? flag.flags);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
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
