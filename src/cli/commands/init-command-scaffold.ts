import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONFIG_FILE_NAME } from '../../config/index.ts';
import { AGENT_ROLES, SCRIPTED_RUNTIME, WORK_ITEM_MODES } from '../../domain/index.ts';
import { PROVIDER_REGISTRY } from '../../providers/registry.ts';
import { buildModeAgentFile } from '../../runtimes/claude/mode-agent-files.ts';
import { RUNTIME_REGISTRY } from '../../runtimes/registry.ts';
import { hasErrorCode } from '../../shared/has-error-code.ts';
import { isRecord } from '../../shared/is-record.ts';
import { buildAgentFile } from './init-command-agent-templates.ts';
import { buildScriptedScenario, SCRIPTED_SCENARIO_PATH } from './init-command-scripted-scenario.ts';

export type ScaffoldAction = 'created' | 'kept' | 'updated';

export interface ScaffoldEntry {
  /** Relative to the repository root, with `/` separators. */
  path: string;
  action: ScaffoldAction;
  /** Why a file the flags asked to change was kept, and what to do about it. */
  note?: string;
}

export interface ScaffoldOptions {
  /** Overwrite generated files that differ from the defaults (never `.claude/CLAUDE.md`). */
  force: boolean;
  /**
   * A dry run without an API key: every role's runtime is `scripted`, answered by a sample scenario
   * (SCRIPTED_SCENARIO_PATH) that matches the agent files written here.
   */
  scripted?: boolean;
  /**
   * `--provider <name>`: the provider to write, with its config block when it has one (made from its own
   * flags; credentials come from the environment, never the file). Other providers' blocks are dropped;
   * absent: the provider is kept.
   */
  provider?: { name: string; block?: Record<string, unknown> };
}

const GITIGNORE_ENTRIES = ['.flotilla/', '.worktrees/'];

const CLAUDE_MD = `# Project context

This file is appended to every Flotilla agent's prompt (\`contextPaths\` in \`flotilla.config.json\`).
Describe what an agent needs to work here:

- how to build, test, type-check and lint (the exact commands);
- the code conventions: layout, naming, test placement, commit message style;
- anything an agent must never do in this repository.
`;

const EXAMPLE_SPEC = `---
status: draft
---
# Example feature

Flotilla plans specs whose frontmatter says \`status: approved\`. This one is a draft, so it is ignored until
you change its status. Replace it with a real spec: what to build, why, and how to tell it is done.

## Acceptance criteria

1. A concrete, testable statement of behaviour.
2. Another one — each criterion becomes something an implementor tests and a reviewer checks.

## Constraints

- Libraries, interfaces or files that must not change.
`;

/**
 * Writes the files `flotilla init` owns into repoRoot. Existing files are kept unless `force` (and
 * `.claude/CLAUDE.md`, the user's own context, is only ever created); the config composes with what is there
 * (writeConfigFile); `.gitignore` gains the missing Flotilla entries and keeps everything else. Idempotent: a
 * second run reports every file as kept.
 */
export async function scaffoldRepository(
  repoRoot: string,
  options: ScaffoldOptions,
): Promise<ScaffoldEntry[]> {
  const files: { path: string; content: string; overwritable: boolean }[] = [
    ...AGENT_ROLES.map((role) => ({
      path: `.claude/agents/${role}.md`,
      content: buildAgentFile(role),
      overwritable: true,
    })),
    // The read-only modes (issue #29): investigate a bug report, refine a vague item.
    ...WORK_ITEM_MODES.map((mode) => ({
      path: `.claude/agents/${mode}.md`,
      content: buildModeAgentFile(mode),
      overwritable: true,
    })),
    { path: '.claude/CLAUDE.md', content: CLAUDE_MD, overwritable: false },
    { path: 'docs/specs/example.md', content: EXAMPLE_SPEC, overwritable: true },
    ...(options.scripted === true
      ? [
          {
            path: SCRIPTED_SCENARIO_PATH,
            content: `${JSON.stringify(buildScriptedScenario(), null, 2)}\n`,
            overwritable: true,
          },
        ]
      : []),
  ];
  const configAction = await writeConfigFile(repoRoot, options);
  const entries: ScaffoldEntry[] = [
    {
      path: CONFIG_FILE_NAME,
      action: configAction,
      ...(configAction === 'kept' &&
        (options.scripted === true || options.provider !== undefined) &&
        parseJsonObject((await readIfExists(join(repoRoot, CONFIG_FILE_NAME))) ?? '') === undefined && {
          note: "it is not a JSON object, so the flags could not be applied; --force replaces it with init's defaults",
        }),
    },
  ];
  for (const file of files) {
    const action = await writeOwnedFile(
      join(repoRoot, file.path),
      file.content,
      options.force && file.overwritable,
    );
    entries.push({
      path: file.path,
      action,
      ...(await describeUnmatchedScenario(repoRoot, file.path, options)),
    });
  }
  entries.push({ path: '.gitignore', action: await updateGitignore(join(repoRoot, '.gitignore')) });
  return entries;
}

/**
 * The config composes with what is there: the user's settings are kept, `--scripted` and `--provider` change
 * only their own keys (so `--scripted` keeps a GitHub provider and `--provider github` keeps scripted
 * runtimes), and `--force` adds init's defaults for the keys the file lacks. A file that is not a JSON object
 * is replaced only with `--force`.
 */
async function writeConfigFile(repoRoot: string, options: ScaffoldOptions): Promise<ScaffoldAction> {
  const path = join(repoRoot, CONFIG_FILE_NAME);
  const existingText = await readIfExists(path);
  const existing = existingText === undefined ? undefined : parseJsonObject(existingText);
  const defaults = await buildDefaultConfig(repoRoot);
  let base: Record<string, unknown>;
  if (existing === undefined) {
    if (existingText !== undefined && !options.force) return 'kept';
    base = defaults;
  } else {
    base = options.force ? { ...defaults, ...existing } : { ...existing };
  }
  const config = applyInitFlags(base, options);
  const content = `${JSON.stringify(config, null, 2)}\n`;
  if (existingText === undefined) {
    await writeFile(path, content);
    return 'created';
  }
  if (existing !== undefined && JSON.stringify(config) === JSON.stringify(existing)) return 'kept';
  await writeFile(path, content);
  return 'updated';
}

/** What the flags say, and nothing else: `--scripted` sets the runtimes, `--provider` the tracker. */
function applyInitFlags(base: Record<string, unknown>, options: ScaffoldOptions): Record<string, unknown> {
  const config = { ...base };
  if (options.scripted === true) {
    const runtimes = isRecord(config.runtimes) ? config.runtimes : {};
    config.runtimes = {
      ...runtimes,
      ...Object.fromEntries(AGENT_ROLES.map((role) => [role, SCRIPTED_RUNTIME])),
    };
    config.scriptedScenario = SCRIPTED_SCENARIO_PATH;
  }
  if (options.provider !== undefined) {
    const { name, block } = options.provider;
    config.provider = name;
    for (const other of PROVIDER_REGISTRY) {
      if (other.name !== name && other.config !== undefined) delete config[other.name];
    }
    if (block !== undefined) {
      const existing = config[name];
      config[name] = { ...(isRecord(existing) ? existing : {}), ...block };
    }
  }
  return config;
}

/**
 * With `--scripted`, an agent file the user changed is kept; the sample scenario answers only prompts holding
 * init's sentence for the role, so a file without it is named (the scripted run would not match it).
 */
async function describeUnmatchedScenario(
  repoRoot: string,
  path: string,
  options: ScaffoldOptions,
): Promise<{ note: string } | Record<string, never>> {
  if (options.scripted !== true) return {};
  const route = buildScriptedScenario().routes.find(
    (candidate) => path === `.claude/agents/${candidate.name}.md`,
  );
  const phrase = route?.match?.systemIncludes;
  if (typeof phrase !== 'string') return {};
  const content = (await readIfExists(join(repoRoot, path))) ?? '';
  if (content.includes(phrase)) return {};
  return {
    note: `the sample scenario (${SCRIPTED_SCENARIO_PATH}) answers a prompt containing '${phrase}', which this file lacks: edit the scenario's route, or --force resets the agent files`,
  };
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function writeOwnedFile(path: string, content: string, overwrite: boolean): Promise<ScaffoldAction> {
  const existing = await readIfExists(path);
  if (existing === undefined) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    return 'created';
  }
  if (existing === content || !overwrite) return 'kept';
  await writeFile(path, content);
  return 'updated';
}

/** Appends the missing entries under a `# Flotilla` heading; `.flotilla`, `/.flotilla/`… count as present. */
async function updateGitignore(path: string): Promise<ScaffoldAction> {
  const existing = await readIfExists(path);
  const present = new Set(
    (existing ?? '').split(/\r?\n/).map((line) => line.trim().replace(/^\//, '').replace(/\/$/, '')),
  );
  const missing = GITIGNORE_ENTRIES.filter((entry) => !present.has(entry.replace(/\/$/, '')));
  if (missing.length === 0) return 'kept';
  const separator = existing === undefined || existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  await writeFile(path, `${existing ?? ''}${separator}# Flotilla\n${missing.join('\n')}\n`);
  return existing === undefined ? 'created' : 'updated';
}

/**
 * A minimal config: the choices a user is most likely to edit. Everything else has a documented default
 * (src/config/README.md); the checks command is guessed from package.json's test script and lockfile, and
 * proposed as the implementor's in-session validation too.
 */
async function buildDefaultConfig(repoRoot: string): Promise<Record<string, unknown>> {
  const testCommand = await detectTestCommand(repoRoot);
  return {
    // The default provider and runtime: each registry's first. GitHub's checks are the pull requests' CI;
    // `checks.command` stays for the local provider.
    provider: PROVIDER_REGISTRY[0].name,
    specsDir: 'docs/specs',
    runtimes: Object.fromEntries(AGENT_ROLES.map((role) => [role, RUNTIME_REGISTRY[0].name])),
    scheduler: { maxConcurrentAgents: 3 },
    checks: { command: testCommand },
    validation: { commands: testCommand === null ? [] : [testCommand] },
  };
}

async function detectTestCommand(repoRoot: string): Promise<string | null> {
  let manifest: unknown;
  try {
    manifest = JSON.parse((await readIfExists(join(repoRoot, 'package.json'))) ?? 'null');
  } catch {
    return null; // an unparsable package.json is not init's problem to report
  }
  const scripts = isRecord(manifest) ? manifest.scripts : undefined;
  if (!isRecord(scripts) || typeof scripts.test !== 'string') return null;
  if (existsSync(join(repoRoot, 'pnpm-lock.yaml'))) return 'pnpm test';
  if (existsSync(join(repoRoot, 'yarn.lock'))) return 'yarn test';
  return 'npm test';
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}
