import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { AGENT_ROLES } from '../../domain/index.ts';
import { loadScenarioFile } from '../../model-server/load-scenario-file.ts';
import { loadAgentDefinition } from '../../runtimes/claude/load-agent-definition.ts';
import { scaffoldRepository } from './init-command-scaffold.ts';

const launcher = fileURLToPath(new URL('../../../bin/flotilla.js', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-init-'));
  dirs.push(dir);
  return dir;
}

async function gitRepo(): Promise<string> {
  const dir = await tempDir();
  execFileSync('git', ['init', '--quiet', '--initial-branch', 'main'], { cwd: dir });
  return dir;
}

function flotillaInit(cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, [launcher, 'init', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const GENERATED = [
  'flotilla.config.json',
  '.claude/agents/planner.md',
  '.claude/agents/implementor.md',
  '.claude/agents/reviewer.md',
  '.claude/agents/investigate.md',
  '.claude/agents/refine.md',
  '.claude/CLAUDE.md',
  'docs/specs/example.md',
  '.gitignore',
];

const config = async (repo: string) => JSON.parse(await readFile(join(repo, 'flotilla.config.json'), 'utf8'));

const actions = (entries: { path: string; action: string }[]) =>
  Object.fromEntries(entries.map((entry) => [entry.path, entry.action]));

describe('flotilla init (CLI)', () => {
  it('scaffolds the repository root from a subdirectory, then keeps everything on a second run', async () => {
    const repo = await gitRepo();
    await mkdir(join(repo, 'src', 'deep'), { recursive: true });

    const first = flotillaInit(join(repo, 'src', 'deep'));
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout.split('\n').slice(0, GENERATED.length)).toEqual(
      GENERATED.map((path) => `created  ${path}`),
    );
    for (const path of GENERATED) await expect(readFile(join(repo, path), 'utf8')).resolves.not.toBe('');

    const second = flotillaInit(repo);
    expect(second.code).toBe(0);
    expect(second.stdout.split('\n').slice(0, GENERATED.length)).toEqual(
      GENERATED.map((path) => `kept  ${path}`),
    );
    expect(await readFile(join(repo, '.gitignore'), 'utf8')).toBe('# Flotilla\n.flotilla/\n.worktrees/\n');
  });

  it('is a usage error (exit 2) outside a git repository, and writes nothing', async () => {
    const dir = await tempDir();
    // The ceiling keeps git from finding a repository above the temp dir, wherever TMPDIR points.
    const result = flotillaInit(dir, [], { ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('is not inside a git repository');
    expect(result.stderr).toContain("run 'git init' first");
    await expect(readFile(join(dir, 'flotilla.config.json'))).rejects.toThrow(/ENOENT/);
  });

  it('names exactly what to commit in its next steps (git commit -a would skip the new files)', async () => {
    const repo = await gitRepo();
    const { stdout } = flotillaInit(repo);
    expect(stdout).toContain(
      'git add flotilla.config.json .gitignore .claude/ docs/specs/ && git commit -m "Add Flotilla and a first spec"',
    );
    expect(stdout).toContain('flotilla doctor');
    expect(stdout).not.toContain('commit -am');
    // Files already there are not named again; the specs directory always is.
    await writeFile(join(repo, '.claude', 'CLAUDE.md'), 'mine\n');
    await rm(join(repo, 'flotilla.config.json'));
    expect(flotillaInit(repo).stdout).toContain(
      'git add flotilla.config.json docs/specs/ && git commit -m "Add Flotilla and a first spec"',
    );
  });

  it('--scripted writes a dry-run config and a valid scenario whose routes match the agent files it writes', async () => {
    const repo = await gitRepo();
    const result = flotillaInit(repo, ['--scripted']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('created  flotilla.scenario.json');
    expect(result.stdout).toContain(
      'git add flotilla.config.json flotilla.scenario.json .gitignore .claude/',
    );
    const loaded = await loadConfig(repo);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    expect(loaded.config.runtimes).toEqual({
      planner: 'scripted',
      implementor: 'scripted',
      reviewer: 'scripted',
    });
    expect(loaded.config.scriptedScenario).toBe('flotilla.scenario.json');
    const scenario = await loadScenarioFile(join(repo, 'flotilla.scenario.json'));
    for (const role of AGENT_ROLES) {
      const route = scenario.routes.find((candidate) => candidate.name === role);
      const phrase = route?.match?.systemIncludes;
      if (typeof phrase !== 'string') throw new Error(`no ${role} route matching on a phrase`);
      const { definition } = await loadAgentDefinition({ repoRoot: repo, role, contextPaths: [] });
      expect(definition.prompt).toContain(phrase);
      // Only its own role's prompt: a planner request must never be answered by the implementor's route.
      for (const other of AGENT_ROLES.filter((candidate) => candidate !== role)) {
        const otherPrompt = (await loadAgentDefinition({ repoRoot: repo, role: other, contextPaths: [] }))
          .definition.prompt;
        expect(otherPrompt).not.toContain(phrase);
      }
    }
  });

  it("flags compose: --scripted keeps a GitHub provider, --provider github keeps scripted runtimes, the user's settings stay", async () => {
    const repo = await gitRepo();
    const github = ['--provider', 'github', '--owner', 'acme', '--repo', 'widgets'];
    expect(flotillaInit(repo, github).code).toBe(0);
    // The user's own choices, which no later init may undo.
    const edited = { ...(await config(repo)), specsDir: 'specs', scheduler: { maxConcurrentAgents: 7 } };
    edited.runtimes.reviewer = 'codex';
    await writeFile(join(repo, 'flotilla.config.json'), JSON.stringify(edited));

    const scripted = flotillaInit(repo, ['--scripted', '--force']);
    expect(scripted.code).toBe(0);
    expect(scripted.stdout).toContain('updated  flotilla.config.json');
    expect(await config(repo)).toMatchObject({
      provider: 'github',
      github: { owner: 'acme', repo: 'widgets' },
      specsDir: 'specs',
      scheduler: { maxConcurrentAgents: 7 },
      runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
      scriptedScenario: 'flotilla.scenario.json',
    });

    expect(
      flotillaInit(repo, [...github.slice(0, 2), '--owner', 'acme', '--repo', 'gadgets', '--force']).code,
    ).toBe(0);
    expect(await config(repo)).toMatchObject({
      provider: 'github',
      github: { owner: 'acme', repo: 'gadgets' },
      specsDir: 'specs',
      runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
      scriptedScenario: 'flotilla.scenario.json',
    });
    // No flags: nothing in the config changes, with or without --force.
    const before = await readFile(join(repo, 'flotilla.config.json'), 'utf8');
    expect(flotillaInit(repo, ['--force']).stdout).toMatch(/kept +flotilla\.config\.json/);
    expect(await readFile(join(repo, 'flotilla.config.json'), 'utf8')).toBe(before);
    // --provider local, said explicitly, switches back and drops the github block.
    expect(flotillaInit(repo, ['--provider', 'local']).code).toBe(0);
    const local = await config(repo);
    expect([local.provider, local.github, local.specsDir]).toEqual(['local', undefined, 'specs']);
    expect((await loadConfig(repo)).ok).toBe(true);
  }, 90_000);

  it('--scripted without --force keeps changed agent files and names those the sample scenario cannot answer', async () => {
    const repo = await gitRepo();
    expect(flotillaInit(repo).code).toBe(0);
    await writeFile(
      join(repo, '.claude', 'agents', 'planner.md'),
      '---\nname: planner\n---\nMy own planner.\n',
    );
    const result = flotillaInit(repo, ['--scripted']);
    expect(result.code).toBe(0);
    expect(await readFile(join(repo, '.claude', 'agents', 'planner.md'), 'utf8')).toContain(
      'My own planner.',
    );
    expect(result.stdout).toMatch(
      /kept {5}\.claude\/agents\/planner\.md\n +! the sample scenario \(flotilla\.scenario\.json\) answers a prompt containing 'You turn approved specifications into work items', which this file lacks/,
    );
    expect(result.stdout).not.toContain('implementor.md\n         !');
    expect((await loadConfig(repo)).ok && (await config(repo)).runtimes.planner).toBe('scripted');

    await writeFile(join(repo, 'flotilla.config.json'), 'not json');
    const broken = flotillaInit(repo, ['--scripted']);
    expect(broken.stdout).toContain(
      "! it is not a JSON object, so the flags could not be applied; --force replaces it with init's defaults",
    );
    expect(await readFile(join(repo, 'flotilla.config.json'), 'utf8')).toBe('not json');
    expect(flotillaInit(repo, ['--scripted', '--force']).code).toBe(0);
    expect((await config(repo)).runtimes.planner).toBe('scripted');
  }, 90_000);

  it('documents --force in --help', () => {
    const help = spawnSync(process.execPath, [launcher, 'init', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--force');
  });
});

describe('scaffoldRepository', () => {
  it('never overwrites an existing file without force; with force updates the generated ones only', async () => {
    const repo = await gitRepo();
    await mkdir(join(repo, '.claude', 'agents'), { recursive: true });
    await writeFile(join(repo, '.claude', 'agents', 'reviewer.md'), 'my reviewer\n');
    await writeFile(join(repo, '.claude', 'CLAUDE.md'), 'my context\n');
    await writeFile(join(repo, 'flotilla.config.json'), '{"specsDir": "specs"}\n');

    const first = actions(await scaffoldRepository(repo, { force: false }));
    expect(first).toMatchObject({
      'flotilla.config.json': 'kept',
      '.claude/agents/reviewer.md': 'kept',
      '.claude/agents/planner.md': 'created',
      '.claude/CLAUDE.md': 'kept',
    });
    expect(await readFile(join(repo, '.claude', 'agents', 'reviewer.md'), 'utf8')).toBe('my reviewer\n');
    expect(await readFile(join(repo, 'flotilla.config.json'), 'utf8')).toBe('{"specsDir": "specs"}\n');

    const forced = actions(await scaffoldRepository(repo, { force: true }));
    expect(forced).toEqual({
      'flotilla.config.json': 'updated',
      '.claude/agents/planner.md': 'kept',
      '.claude/agents/implementor.md': 'kept',
      '.claude/agents/reviewer.md': 'updated',
      '.claude/agents/investigate.md': 'kept',
      '.claude/agents/refine.md': 'kept',
      '.claude/CLAUDE.md': 'kept',
      'docs/specs/example.md': 'kept',
      '.gitignore': 'kept',
    });
    expect(await readFile(join(repo, '.claude', 'agents', 'reviewer.md'), 'utf8')).toContain('# Reviewer');
    // The user's project context is theirs: --force leaves it alone.
    expect(await readFile(join(repo, '.claude', 'CLAUDE.md'), 'utf8')).toBe('my context\n');
  });

  it('appends the missing .gitignore entries once, keeping existing content', async () => {
    const repo = await gitRepo();
    await writeFile(join(repo, '.gitignore'), 'node_modules/\n/.worktrees\ndist');
    expect(actions(await scaffoldRepository(repo, { force: false }))['.gitignore']).toBe('updated');
    expect(await readFile(join(repo, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n/.worktrees\ndist\n\n# Flotilla\n.flotilla/\n',
    );
    expect(actions(await scaffoldRepository(repo, { force: true }))['.gitignore']).toBe('kept');
    expect(await readFile(join(repo, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n/.worktrees\ndist\n\n# Flotilla\n.flotilla/\n',
    );
  });

  it('writes a config that loadConfig accepts, with the checks and validation commands guessed from package.json', async () => {
    const plain = await gitRepo();
    await scaffoldRepository(plain, { force: false });
    const plainConfig = await loadConfig(plain);
    if (!plainConfig.ok) throw new Error(plainConfig.errors.join('\n'));
    expect(plainConfig.found).toBe(true);
    expect(plainConfig.config.checks.command).toBeNull();
    expect(plainConfig.config.validation.commands).toEqual([]);
    expect(plainConfig.config.specsDir).toBe('docs/specs');

    const node = await gitRepo();
    await writeFile(join(node, 'package.json'), '{"scripts": {"test": "vitest run"}}');
    await writeFile(join(node, 'pnpm-lock.yaml'), '');
    await scaffoldRepository(node, { force: false });
    const nodeConfig = await loadConfig(node);
    expect(nodeConfig.ok && nodeConfig.config.checks.command).toBe('pnpm test');
    expect(nodeConfig.ok && nodeConfig.config.validation.commands).toEqual(['pnpm test']);
  });

  it('writes agent definitions that load with the per-role tools, model and turn budget', async () => {
    const repo = await gitRepo();
    await scaffoldRepository(repo, { force: false });
    const expected = {
      planner: { model: 'opus', maxTurns: 100, writes: false },
      implementor: { model: 'opus', maxTurns: 200, writes: true },
      reviewer: { model: 'sonnet', maxTurns: 50, writes: false },
    };
    for (const role of AGENT_ROLES) {
      const loaded = await loadAgentDefinition({ repoRoot: repo, role, contextPaths: ['.claude/CLAUDE.md'] });
      const { definition } = loaded;
      expect(definition.model).toBe(expected[role].model);
      expect(loaded.maxTurns).toBe(expected[role].maxTurns);
      expect(definition.description).toMatch(new RegExp(`^Flotilla ${role} — `));
      expect(definition.tools).toEqual(
        expect.arrayContaining(['Read', 'Grep', 'Glob', 'Bash', 'StructuredOutput']),
      );
      expect(definition.tools?.includes('Write')).toBe(expected[role].writes);
      expect(definition.tools?.includes('Edit')).toBe(expected[role].writes);
      expect(definition.disallowedTools).toEqual(
        expect.arrayContaining(['WebFetch', 'WebSearch', 'Task', 'AskUserQuestion', 'TodoWrite', 'Skill']),
      );
      // The prompt describes the role's structured output and ends with the project context.
      expect(definition.prompt).toContain(`role: "${role}"`);
      expect(definition.prompt).toContain('`git`, `yarn`, `npm`');
      expect(definition.prompt).not.toContain('gh.sh');
      expect(
        definition.prompt.trimEnd().endsWith('anything an agent must never do in this repository.'),
      ).toBe(true);
    }
    const implementor = await readFile(join(repo, '.claude', 'agents', 'implementor.md'), 'utf8');
    expect(implementor).toContain('Never push, never use `gh`');
    expect(implementor).toContain('`validation-failure`');
    expect(implementor).toContain('`blocked`');
    const reviewer = await readFile(join(repo, '.claude', 'agents', 'reviewer.md'), 'utf8');
    expect(reviewer).toContain('Approve only with zero findings');
  });

  it('writes an example spec that is a draft, so nothing is planned from it', async () => {
    const repo = await gitRepo();
    await scaffoldRepository(repo, { force: false });
    const spec = await readFile(join(repo, 'docs', 'specs', 'example.md'), 'utf8');
    expect(spec.startsWith('---\nstatus: draft\n---\n')).toBe(true);
  });
});
