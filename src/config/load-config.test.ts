import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveFlotillaPaths } from '../shared/resolve-flotilla-paths.ts';
import { loadConfig } from './load-config.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-config-'));
  dirs.push(dir);
  return dir;
}

function git(cwd: string, args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

async function gitRepo(branch = 'trunk'): Promise<string> {
  const dir = await tempDir();
  git(dir, ['init', '--quiet', '--initial-branch', branch]);
  return dir;
}

/** A directory (not a repository) holding the given config text. */
async function withConfig(content: unknown): Promise<string> {
  const dir = await tempDir();
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
  await writeFile(join(dir, 'flotilla.config.json'), text);
  return dir;
}

async function errorsFor(content: unknown): Promise<string[]> {
  const result = await loadConfig(await withConfig(content));
  if (result.ok) throw new Error('expected the config to be rejected');
  return result.errors;
}

describe('loadConfig: defaults', () => {
  it('returns every default when there is no file, with the branch detected from git', async () => {
    const repo = await gitRepo('trunk');
    const result = await loadConfig(repo);
    expect(result).toEqual({
      ok: true,
      found: false,
      path: join(repo, 'flotilla.config.json'),
      config: {
        provider: 'local',
        defaultBranch: 'trunk',
        specsDir: 'docs/specs',
        runtimes: { planner: 'claude', implementor: 'claude', reviewer: 'claude' },
        namedRuntimes: {},
        models: {},
        modes: { refine: { auto: true } },
        accounts: [],
        maxAgentDuration: 1800,
        shutdownTimeout: 300,
        sandbox: { mode: 'on', networkAllow: [], passEnv: [], allowRead: [], denyRead: [] },
        scheduler: {
          maxConcurrentAgents: 3,
          maxAttempts: 3,
          retryBaseDelay: 30,
          retryMaxDelay: 900,
          stallTimeout: 900,
          resources: { reserveMemoryMiB: 1024, agentMemoryMiB: 600, maxLoadPerCpu: null },
        },
        maxReviewRounds: 3,
        maxCheckRounds: 2,
        approval: { plans: 'auto', investigations: 'auto', refinements: 'auto' },
        limits: { plan: {}, implement: {}, review: {}, investigate: {}, refine: {} },
        dependencies: { waitFor: 'approved' },
        merge: { queue: false },
        questionTimeout: 604_800,
        memory: { maxPromptChars: 8000 },
        pollIntervals: { workItems: 30, revisions: 30, specs: 60 },
        worktree: { setupCommand: null, prepareAhead: true, copy: [], teardownCommand: null, ports: 10 },
        checks: { command: null, timeout: 1800 },
        validation: { commands: [], maxRounds: 3, timeout: 600 },
        contextPaths: ['.claude/CLAUDE.md'],
        logging: { level: 'info', agentSessions: true, maxRunBytes: 5 * 1024 * 1024 },
        bashValidator: { extraAllowedCommands: [], extraBlockPatterns: [] },
        pathGuard: { readOnlyPaths: [] },
        scriptedRuntime: 'claude',
        budgets: { perRole: {}, timeZone: 'UTC', estimateFloorUsd: 0.05 },
      },
    });
  });

  it('fills the fields a partial file leaves out, section by section', async () => {
    const result = await loadConfig(
      await withConfig({
        defaultBranch: 'develop',
        runtimes: { reviewer: 'scripted', implementor: { runtime: 'cli', preset: 'aider' } },
        scriptedScenario: 'scenarios/review.json',
        models: { implementor: 'sonnet' },
        scheduler: { maxConcurrentAgents: 5 },
        worktree: { setupCommand: 'none' },
        checks: { command: 'npm test' },
        validation: { commands: ['npm run lint', 'npm test'] },
        bashValidator: { extraAllowedCommands: ['make'] },
        pathGuard: { readOnlyPaths: ['../shared-docs'] },
      }),
    );
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.found).toBe(true);
    expect(result.config).toMatchObject({
      defaultBranch: 'develop',
      runtimes: {
        planner: 'claude',
        implementor: { runtime: 'cli', preset: 'aider', protectedPaths: [] },
        reviewer: 'scripted',
      },
      models: { implementor: 'sonnet' },
      scheduler: { maxConcurrentAgents: 5, maxAttempts: 3, retryMaxDelay: 900 },
      worktree: { setupCommand: 'none' },
      checks: { command: 'npm test', timeout: 1800 },
      validation: { commands: ['npm run lint', 'npm test'], maxRounds: 3, timeout: 600 },
      bashValidator: { extraAllowedCommands: ['make'], extraBlockPatterns: [] },
      pathGuard: { readOnlyPaths: ['../shared-docs'] },
    });
  });

  it('reads the github section', async () => {
    const github = { owner: 'acme', repo: 'app', apiUrl: 'https://ghe.example.com/api/v3' };
    const result = await loadConfig(await withConfig({ provider: 'github', github, defaultBranch: 'main' }));
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.config).toMatchObject({ provider: 'github', github });
    // Replies answer questions from the owner, members and collaborators unless configured otherwise.
    expect(result.config.github?.answerAuthorAssociations).toEqual(['OWNER', 'MEMBER', 'COLLABORATOR']);
    // Comments mentioning @flotilla send an item back for rework unless configured otherwise.
    expect(result.config.github?.mentionTrigger).toBe('@flotilla');
    // Writes go a second apart (GitHub's guidance for secondary rate limits) unless configured otherwise.
    expect(result.config.github?.writeIntervalMs).toBe(1000);
  });

  it('accepts a UTF-8 byte order mark', async () => {
    const result = await loadConfig(await withConfig('\uFEFF{"specsDir": "specs"}'));
    expect(result.ok && result.config.specsDir).toBe('specs');
  });
});

describe('loadConfig: default branch detection (real git)', () => {
  it('prefers origin/HEAD over the current branch', async () => {
    const repo = await gitRepo('feature');
    git(repo, ['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/release']);
    const result = await loadConfig(repo);
    expect(result.ok && result.config.defaultBranch).toBe('release');
  });

  it('prefers a local main (or master) over the checked-out feature branch', async () => {
    const repo = await gitRepo('main');
    git(repo, [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t.invalid',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'x',
    ]);
    git(repo, ['checkout', '--quiet', '-b', 'feature']);
    expect(await loadConfig(repo)).toMatchObject({ config: { defaultBranch: 'main' } });
    git(repo, ['branch', '--quiet', '-m', 'main', 'master']);
    expect(await loadConfig(repo)).toMatchObject({ config: { defaultBranch: 'master' } });
  });

  it('uses the current branch without a remote, and main outside git or on a detached HEAD', async () => {
    expect(await loadConfig(await gitRepo('trunk'))).toMatchObject({ config: { defaultBranch: 'trunk' } });
    expect(await loadConfig(await tempDir())).toMatchObject({ config: { defaultBranch: 'main' } });

    const detached = await gitRepo('work');
    git(detached, [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t.invalid',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'x',
    ]);
    git(detached, ['checkout', '--quiet', '--detach']);
    expect(await loadConfig(detached)).toMatchObject({ config: { defaultBranch: 'main' } });
  });

  it('does not consult git when the file names the branch', async () => {
    const repo = await gitRepo('trunk');
    await writeFile(join(repo, 'flotilla.config.json'), '{"defaultBranch": "main"}');
    expect(await loadConfig(repo)).toMatchObject({ config: { defaultBranch: 'main' } });
  });
});

describe('loadConfig: every field names its path and expectation', () => {
  const F = 'flotilla.config.json';
  it.each([
    [{ provider: 'gitlab' }, `${F}: provider: expected 'local' or 'github', got "gitlab"`],
    [{ provider: 'github' }, `${F}: github: expected { owner, repo } when provider is 'github'`],
    [
      { provider: 'github', github: { owner: 'acme', repo: '' } },
      `${F}: github.repo: expected a non-empty string (the repository name), got ""`,
    ],
    [
      { github: { owner: 'acme', repo: 'app', apiUrl: 'ftp://example.com' } },
      `${F}: github.apiUrl: expected an http(s) URL (the REST API root), got "ftp://example.com"`,
    ],
    [
      { github: { owner: 'acme', repo: 'app', answerAuthorAssociations: ['OWNER', 'ADMIN'] } },
      `${F}: github.answerAuthorAssociations[1]: expected one of OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE, got "ADMIN"`,
    ],
    [
      { github: { owner: 'acme', repo: 'app', mentionTrigger: 'flotilla' } },
      `${F}: github.mentionTrigger: expected a mention such as '@flotilla' (@, then a login-like name), got "flotilla"`,
    ],
    [
      { github: { owner: 'acme', repo: 'app', writeIntervalMs: -1 } },
      `${F}: github.writeIntervalMs: expected an integer from 0 to 60000 (milliseconds), got -1`,
    ],
    [
      { github: { owner: 'acme', repo: 'app', writeIntervalMs: 1.5 } },
      `${F}: github.writeIntervalMs: expected an integer from 0 to 60000 (milliseconds), got 1.5`,
    ],
    [
      { budgets: { dailyUsd: 0 } },
      `${F}: budgets.dailyUsd: expected a positive number of US dollars (the repository's spend per day), got 0`,
    ],
    [
      { budgets: { perRole: { implementor: '2' } } },
      `${F}: budgets.perRole.implementor: expected a positive number of US dollars (the implementor's per-run cap), got "2"`,
    ],
    [
      { budgets: { timeZone: 'Mars/Olympus' } },
      `${F}: budgets.timeZone: expected an IANA time zone name such as 'Europe/Paris' or 'UTC', got "Mars/Olympus"`,
    ],
    [
      { worktree: { copy: ['.env', '../secrets.env'] } },
      `${F}: worktree.copy[1]: expected a path or glob relative to the repository root (no leading '/', no '..'), got "../secrets.env"`,
    ],
    [
      { worktree: { copy: '.env' } },
      `${F}: worktree.copy: expected a list of paths or globs relative to the repository root, got ".env"`,
    ],
    [{ worktree: { ports: -1 } }, `${F}: worktree.ports: expected an integer from 0 to 100, got -1`],
    [{ worktree: { ports: 2.5 } }, `${F}: worktree.ports: expected an integer from 0 to 100, got 2.5`],
    [
      { worktree: { teardownCommand: '' } },
      `${F}: worktree.teardownCommand: expected a shell command, or null (none), got ""`,
    ],
    [{ defaultBranch: 7 }, `${F}: defaultBranch: expected a non-empty string (a branch name), got 7`],
    [{ defaultBranch: '' }, `${F}: defaultBranch: expected a non-empty string (a branch name), got ""`],
    [
      { specsDir: null },
      `${F}: specsDir: expected a non-empty string (a directory relative to the repository root), got null`,
    ],
    [{ runtimes: 'claude' }, `${F}: runtimes: expected an object, got "claude"`],
    [
      { runtimes: { planner: 'cursor' } },
      `${F}: runtimes.planner: expected 'claude', 'codex', 'scripted', 'gemini' or a CLI runtime object ({"runtime": "cli", "preset": …}), got "cursor"`,
    ],
    [
      { runtimes: { implementor: 1 } },
      `${F}: runtimes.implementor: expected 'claude', 'codex', 'scripted', 'gemini' or a CLI runtime object ({"runtime": "cli", "preset": …}), got 1`,
    ],
    [
      { runtimes: { reviewer: null } },
      `${F}: runtimes.reviewer: expected 'claude', 'codex', 'scripted', 'gemini' or a CLI runtime object ({"runtime": "cli", "preset": …}), got null`,
    ],
    [
      { runtimes: { implementor: { runtime: 'cli', preset: 'cursor' } } },
      `${F}: runtimes.implementor: expected preset: 'claude', 'codex', 'aider', 'gemini', 'opencode' or 'custom', got {"runtime":"cli","preset":"cursor"}`,
    ],
    [
      { runtimes: { implementor: { runtime: 'cli', preset: 'custom' } } },
      `${F}: runtimes.implementor.custom: expected the custom preset (start, resume, sessionId) when preset is 'custom'`,
    ],
    [
      { namedRuntimes: { 'Aider Local': 'codex' } },
      `${F}: namedRuntimes.Aider Local: expected the key to be a runtime name of lower-case letters, digits, ".", "_" or "-", got "codex"`,
    ],
    [
      { namedRuntimes: { codex: 'claude' } },
      `${F}: namedRuntimes.codex: expected the key to be a runtime name of lower-case letters, digits, ".", "_" or "-", not a built-in runtime name, got "claude"`,
    ],
    [
      { namedRuntimes: { fast: 'cursor' } },
      `${F}: namedRuntimes.fast: expected 'claude', 'codex', 'scripted', 'gemini' or a CLI runtime object ({"runtime": "cli", "preset": …}), got "cursor"`,
    ],
    [
      { models: { planner: '' } },
      `${F}: models.planner: expected a non-empty string (a model alias or id), got ""`,
    ],
    [
      { models: { implementor: 3 } },
      `${F}: models.implementor: expected a model alias or id, or an object: complexity label value → model (e.g. { "trivial": "haiku" }), got 3`,
    ],
    [
      { models: { reviewer: ['opus'] } },
      `${F}: models.reviewer: expected a non-empty string (a model alias or id), got ["opus"]`,
    ],
    [{ maxAgentDuration: 0 }, `${F}: maxAgentDuration: expected an integer ≥ 1 (seconds), got 0`],
    [{ shutdownTimeout: 1.5 }, `${F}: shutdownTimeout: expected an integer ≥ 1 (seconds), got 1.5`],
    [{ scheduler: [] }, `${F}: scheduler: expected an object, got []`],
    [
      { scheduler: { maxConcurrentAgents: 'three' } },
      `${F}: scheduler.maxConcurrentAgents: expected an integer ≥ 1, got "three"`,
    ],
    [{ scheduler: { maxAttempts: 0 } }, `${F}: scheduler.maxAttempts: expected an integer ≥ 1, got 0`],
    [
      { scheduler: { retryBaseDelay: -1 } },
      `${F}: scheduler.retryBaseDelay: expected an integer ≥ 1 (seconds), got -1`,
    ],
    [
      { scheduler: { retryMaxDelay: '900' } },
      `${F}: scheduler.retryMaxDelay: expected an integer ≥ 1 (seconds), got "900"`,
    ],
    [
      { scheduler: { retryBaseDelay: 60, retryMaxDelay: 10 } },
      `${F}: scheduler.retryMaxDelay: expected an integer ≥ scheduler.retryBaseDelay, got 10`,
    ],
    [
      { scheduler: { stallTimeout: true } },
      `${F}: scheduler.stallTimeout: expected an integer ≥ 1 (seconds), got true`,
    ],
    [{ maxCheckRounds: 0 }, `${F}: maxCheckRounds: expected an integer ≥ 1, got 0`],
    [{ approval: { plans: 'manual' } }, `${F}: approval.plans: expected 'auto' or 'required', got "manual"`],
    [
      { dependencies: { waitFor: 'reviewed' } },
      `${F}: dependencies.waitFor: expected 'approved' or 'merged', got "reviewed"`,
    ],
    [{ merge: { queue: 'yes' } }, `${F}: merge.queue: expected true or false, got "yes"`],
    [{ maxReviewRounds: 0 }, `${F}: maxReviewRounds: expected an integer ≥ 1, got 0`],
    [{ pollIntervals: 30 }, `${F}: pollIntervals: expected an object, got 30`],
    [
      { pollIntervals: { workItems: 0 } },
      `${F}: pollIntervals.workItems: expected an integer ≥ 1 (seconds), got 0`,
    ],
    [
      { pollIntervals: { revisions: 'x' } },
      `${F}: pollIntervals.revisions: expected an integer ≥ 1 (seconds), got "x"`,
    ],
    [
      { pollIntervals: { specs: 2.5 } },
      `${F}: pollIntervals.specs: expected an integer ≥ 1 (seconds), got 2.5`,
    ],
    [
      { worktree: { setupCommand: false } },
      `${F}: worktree.setupCommand: expected a shell command, 'none', or null (detect from the lockfile), got false`,
    ],
    [
      { checks: { command: 5 } },
      `${F}: checks.command: expected a shell command, or null (no checks), got 5`,
    ],
    [{ checks: { timeout: 0 } }, `${F}: checks.timeout: expected an integer ≥ 1 (seconds), got 0`],
    [{ validation: [] }, `${F}: validation: expected an object, got []`],
    [
      { validation: { commands: 'npm test' } },
      `${F}: validation.commands: expected a list of shell commands, got "npm test"`,
    ],
    [
      { validation: { commands: ['npm test', ''] } },
      `${F}: validation.commands[1]: expected a non-empty string (a shell command), got ""`,
    ],
    [{ validation: { maxRounds: -1 } }, `${F}: validation.maxRounds: expected an integer ≥ 0, got -1`],
    [{ validation: { maxRounds: 1.5 } }, `${F}: validation.maxRounds: expected an integer ≥ 0, got 1.5`],
    [{ validation: { timeout: 0 } }, `${F}: validation.timeout: expected an integer ≥ 1 (seconds), got 0`],
    [
      { contextPaths: '.claude/CLAUDE.md' },
      `${F}: contextPaths: expected a list of file paths, got ".claude/CLAUDE.md"`,
    ],
    [
      { contextPaths: ['ok.md', 4] },
      `${F}: contextPaths[1]: expected a non-empty string (a path relative to the repository root), got 4`,
    ],
    [
      { logging: { level: 'verbose' } },
      `${F}: logging.level: expected 'debug', 'info', 'warn' or 'error', got "verbose"`,
    ],
    [{ logging: { agentSessions: 'yes' } }, `${F}: logging.agentSessions: expected true or false, got "yes"`],
    [{ logging: { maxRunBytes: 1000 } }, `${F}: logging.maxRunBytes: expected an integer ≥ 65536, got 1000`],
    [
      { bashValidator: { extraAllowedCommands: 'make' } },
      `${F}: bashValidator.extraAllowedCommands: expected a list, got "make"`,
    ],
    [
      { bashValidator: { extraAllowedCommands: ['make test'] } },
      `${F}: bashValidator.extraAllowedCommands[0]: a command name has no spaces, got "make test"`,
    ],
    [
      { bashValidator: { extraAllowedCommands: [''] } },
      `${F}: bashValidator.extraAllowedCommands[0]: expected a non-empty string, got ""`,
    ],
    [
      { bashValidator: { extraBlockPatterns: ['('] } },
      `${F}: bashValidator.extraBlockPatterns[0]: not a valid regular expression, got "("`,
    ],
    [
      { pathGuard: { readOnlyPaths: '/opt/docs' } },
      `${F}: pathGuard.readOnlyPaths: expected a list of paths, got "/opt/docs"`,
    ],
    [
      { pathGuard: { readOnlyPaths: [''] } },
      `${F}: pathGuard.readOnlyPaths[0]: expected a non-empty string (an absolute path or one relative to the repository root), got ""`,
    ],
    [[], `${F}: (root): expected an object, got []`],
    ['"text"', `${F}: (root): expected an object, got "text"`],
  ])('%j', async (content, expected) => {
    expect(await errorsFor(content)).toEqual([expected]);
  });

  it('reports every problem at once, not only the first', async () => {
    const errors = await errorsFor({
      maxAgentDuration: 'long',
      logging: { level: 'loud' },
      checks: { timeout: 0 },
    });
    expect(errors).toHaveLength(3);
  });
});

describe('loadConfig: unknown keys are errors', () => {
  it('names a top-level typo, suggests the key and lists the known ones', async () => {
    expect(await errorsFor({ specDir: 'specs' })).toEqual([
      'flotilla.config.json: specDir: unknown key (did you mean "specsDir"?); expected one of: provider, github, defaultBranch, specsDir, runtimes, namedRuntimes, models, limits, accounts, cluster, maxAgentDuration, shutdownTimeout, scheduler, budgets, maxReviewRounds, maxCheckRounds, approval, modes, dependencies, merge, questionTimeout, memory, pollIntervals, worktree, checks, validation, contextPaths, logging, bashValidator, pathGuard, sandbox, scriptedScenario, scriptedRuntime',
    ]);
  });

  it('requires a scenario file when a runtime is scripted', async () => {
    expect(await errorsFor({ runtimes: { planner: 'scripted' } })).toEqual([
      "flotilla.config.json: scriptedScenario: expected a scenario file path when any of runtimes.* or namedRuntimes.* is 'scripted'",
    ]);
  });

  it('names nested unknown keys with their full path', async () => {
    expect(await errorsFor({ scheduler: { maxConcurentAgents: 2, colour: 'blue' } })).toEqual([
      'flotilla.config.json: scheduler.maxConcurentAgents: unknown key (did you mean "maxConcurrentAgents"?); expected one of: maxConcurrentAgents, maxAttempts, retryBaseDelay, retryMaxDelay, stallTimeout, resources',
      'flotilla.config.json: scheduler.colour: unknown key; expected one of: maxConcurrentAgents, maxAttempts, retryBaseDelay, retryMaxDelay, stallTimeout, resources',
    ]);
    // Adjacent transpositions count as one edit, as in the CLI's unknown-command hint.
    expect(await errorsFor({ scheduler: { mxaAttemtps: 2 } })).toEqual([
      'flotilla.config.json: scheduler.mxaAttemtps: unknown key (did you mean "maxAttempts"?); expected one of: maxConcurrentAgents, maxAttempts, retryBaseDelay, retryMaxDelay, stallTimeout, resources',
    ]);
    expect(await errorsFor({ runtimes: { planer: 'claude' } })).toEqual([
      'flotilla.config.json: runtimes.planer: unknown key (did you mean "planner"?); expected one of: planner, implementor, reviewer',
    ]);
    expect(await errorsFor({ bashValidator: { allow: ['make'] } })).toEqual([
      'flotilla.config.json: bashValidator.allow: unknown key; expected one of: extraAllowedCommands, extraBlockPatterns',
    ]);
  });
});

describe('loadConfig: malformed JSON names the line and column', () => {
  it.each([
    ['{\n  "specsDir": "docs",\n}\n', 'line 3, column 1: expected a double-quoted property name, found "}"'],
    ['{\n  "specsDir" "docs"\n}', `line 2, column 14: expected ':' after the property name, found "\\""`],
    ['{\n  "checks": { "command": npm test }\n}', 'line 2, column 26: expected a value, found "n"'],
    ['{ "a": [1, 2 }', `line 1, column 14: expected ',' or ']', found "}"`],
    ['{ "a": 1 } trailing', 'line 1, column 12: expected end of file, found "t"'],
    ['', 'line 1, column 1: expected a value, found end of file'],
    [
      '{\n  "a": "unterminated\n}',
      'line 2, column 21: expected a closing quote (control characters must be escaped), found "\\n"',
    ],
  ])('%j', async (text, detail) => {
    expect(await errorsFor(text)).toEqual([`flotilla.config.json: invalid JSON at ${detail}`]);
  });
});

describe('loadConfig: secrets are never read from the file', () => {
  it('rejects secret-looking keys at any depth and says to use environment variables', async () => {
    const errors = await errorsFor({
      apiKey: 'sk-ant-123',
      checks: { token: 'x' },
      models: { planner: 'opus', anthropic_api_key: 'k' },
      password: 'p',
    });
    expect(errors).toHaveLength(4);
    expect(errors[0]).toBe(
      'flotilla.config.json: apiKey: looks like a secret; secrets are never read from the config file — set them as environment variables (e.g. ANTHROPIC_API_KEY) and remove this key',
    );
    expect(errors.slice(1).map((error) => error.split(': ')[1])).toEqual([
      'checks.token',
      'models.anthropic_api_key',
      'password',
    ]);
    // The secret is not echoed back.
    expect(errors.join('\n')).not.toContain('sk-ant-123');
  });

  it('still reports the other problems next to a secret', async () => {
    const errors = await errorsFor({ githubToken: 'x', maxReviewRounds: 0 });
    expect(errors).toEqual([
      expect.stringContaining('githubToken: looks like a secret'),
      'flotilla.config.json: maxReviewRounds: expected an integer ≥ 1, got 0',
    ]);
  });
});

describe('loadConfig: unreadable file', () => {
  it('reports a config path that is a directory', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'flotilla.config.json'));
    const result = await loadConfig(dir);
    expect(result).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^flotilla\.config\.json: cannot read .*EISDIR/)],
    });
  });
});

describe('resolveFlotillaPaths', () => {
  it('puts state under .flotilla and worktrees under .worktrees', () => {
    expect(resolveFlotillaPaths('/repo')).toEqual({
      stateDir: '/repo/.flotilla',
      dbPath: '/repo/.flotilla/flotilla.db',
      logsDir: '/repo/.flotilla/logs',
      sessionsDir: '/repo/.flotilla/logs/sessions',
      tmpDir: '/repo/.flotilla/tmp',
      worktreesDir: '/repo/.worktrees',
    });
  });
});

describe('loadConfig: cluster', () => {
  const F = 'flotilla.config.json';
  it('reads cluster.postgres as a reference to an environment variable, with defaults', async () => {
    const result = await loadConfig(await withConfig({ cluster: { postgres: '$FLOTILLA_DATABASE_URL' } }));
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.config.cluster).toEqual({
      postgres: '$FLOTILLA_DATABASE_URL',
      remote: 'origin',
      heartbeatTimeout: 15,
      leaseTimeout: 5,
    });
  });

  it('refuses a literal URL, naming the field and what belongs there', async () => {
    expect(await errorsFor({ cluster: { postgres: 'postgres://u:secret@db/flotilla' } })).toEqual([
      `${F}: cluster.postgres: expected a reference to an environment variable such as "$FLOTILLA_DATABASE_URL" — never the URL itself (it holds a password), got "postgres://u:secret@db/flotilla"`,
    ]);
  });
});

describe('loadConfig: accounts', () => {
  const F = 'flotilla.config.json';
  it('reads accounts that name environment variables', async () => {
    const accounts = [
      { name: 'work', runtime: 'claude', env: { ANTHROPIC_API_KEY: '$WORK_ANTHROPIC_KEY' } },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the braced form of a variable reference
      { name: 'personal', runtime: 'claude', env: { CLAUDE_CODE_OAUTH_TOKEN: '${PERSONAL_TOKEN}' } },
    ];
    const result = await loadConfig(await withConfig({ accounts }));
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.config.accounts).toEqual(accounts);
  });

  it('refuses a literal secret, naming the field and what belongs there', async () => {
    expect(
      await errorsFor({
        accounts: [{ name: 'work', runtime: 'claude', env: { ANTHROPIC_API_KEY: 'sk-ant-123' } }],
      }),
    ).toEqual([
      `${F}: accounts[0].env.ANTHROPIC_API_KEY: expected a reference to an environment variable such as "$WORK_ANTHROPIC_KEY" — never the secret itself, got "sk-ant-123"`,
    ]);
  });

  it('refuses duplicate names and runtimes without accounts', async () => {
    const errors = await errorsFor({
      accounts: [
        { name: 'a', runtime: 'claude', env: { ANTHROPIC_API_KEY: '$A' } },
        { name: 'a', runtime: 'codex', env: { ANTHROPIC_API_KEY: '$B' } },
      ],
    });
    expect(errors.join('\n')).toContain(
      "accounts[1].runtime: expected 'claude' or 'scripted' (accounts are for the Claude runtime so far)",
    );
  });
});
