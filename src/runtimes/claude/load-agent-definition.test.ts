import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentDefinition as SdkAgentDefinition } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { AgentRole } from '../../domain/index.ts';
import {
  type AgentDefinition,
  type LoadAgentDefinitionParams,
  loadAgentDefinition,
} from './load-agent-definition.ts';
import { buildModeAgentFile } from './mode-agent-files.ts';

const IMPLEMENTOR_FILE = `---
name: implementor
description: Implements one work item in an isolated worktree
tools: Read, Write, Edit,  Grep , Glob, Bash
disallowedTools: NotebookEdit, WebFetch, WebSearch
model: opus
maxTurns: 100
permissionMode: bypassPermissions
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: .claude/hooks/validate-bash.sh
---
You are the implementor.

Follow the work item.
`;

describe('loadAgentDefinition', () => {
  let repoRoot: string;
  beforeEach(async () => {
    repoRoot = await mkdtemp(join(tmpdir(), 'flotilla-agents-'));
    await mkdir(join(repoRoot, '.claude', 'agents'), { recursive: true });
  });
  afterEach(async () => {
    await rm(repoRoot, { recursive: true, force: true });
  });

  const writeAgent = (role: AgentRole, content: string) =>
    writeFile(join(repoRoot, '.claude', 'agents', `${role}.md`), content);
  const load = (overrides: Partial<LoadAgentDefinitionParams> = {}) =>
    loadAgentDefinition({ repoRoot, role: 'implementor', contextPaths: [], ...overrides });

  it('maps the front matter and body of .claude/agents/<role>.md to an inline definition', async () => {
    await writeAgent('implementor', IMPLEMENTOR_FILE);
    const loaded = await load();
    expect(loaded).toEqual({
      definition: {
        description: 'Implements one work item in an isolated worktree',
        tools: ['Read', 'Write', 'Edit', 'Grep', 'Glob', 'Bash', 'StructuredOutput'],
        disallowedTools: ['NotebookEdit', 'WebFetch', 'WebSearch'],
        prompt: 'You are the implementor.\n\nFollow the work item.\n',
        model: 'opus',
      },
      maxTurns: 100,
      filePath: join(repoRoot, '.claude', 'agents', 'implementor.md'),
    });
  });

  it('builds a definition the SDK accepts as its AgentDefinition', () => {
    expectTypeOf<AgentDefinition>().toExtend<SdkAgentDefinition>();
  });

  it('ignores hooks, permissionMode and name from the file (the adapter configures those itself)', async () => {
    await writeAgent('implementor', IMPLEMENTOR_FILE);
    const { definition } = await load();
    expect(Object.keys(definition).sort()).toEqual([
      'description',
      'disallowedTools',
      'model',
      'prompt',
      'tools',
    ]);
  });

  it('Given an agent definition file includes a `maxTurns` frontmatter field, when `query()` is called, then the `maxTurns` session option is set to the parsed integer value', async () => {
    await writeAgent('reviewer', '---\ndescription: r\nmaxTurns: 50\n---\nReview.\n');
    const loaded = await load({ role: 'reviewer' });
    expect(loaded.maxTurns).toBe(50);
    expect(loaded.definition).not.toHaveProperty('maxTurns');
  });

  it('accepts maxTurns written as a quoted integer', async () => {
    await writeAgent('reviewer', '---\ndescription: r\nmaxTurns: "25"\n---\nReview.\n');
    expect((await load({ role: 'reviewer' })).maxTurns).toBe(25);
  });

  it('Given an agent definition file does not include `maxTurns`, when `query()` is called, then `maxTurns` is omitted (SDK default applies)', async () => {
    await writeAgent('planner', '---\ndescription: p\n---\nPlan.\n');
    expect((await load({ role: 'planner' })).maxTurns).toBeUndefined();
  });

  it.each([['2.5'], ['0'], ['-3'], ['lots'], ['[1]']])(
    'rejects maxTurns: %s with a clear error',
    async (value) => {
      await writeAgent('planner', `---\ndescription: p\nmaxTurns: ${value}\n---\nPlan.\n`);
      await expect(load({ role: 'planner' })).rejects.toThrow(
        /Invalid "maxTurns" in .*planner\.md: expected a positive integer, got/,
      );
    },
  );

  it('Given an agent definition file has `tools` as a comma-separated string, when parsed, then `AgentDefinition.tools` is a trimmed `string[]`', async () => {
    await writeAgent('planner', '---\ndescription: p\ntools:   Read ,Grep,  Glob ,Bash,\n---\nPlan.\n');
    const { definition } = await load({ role: 'planner', structuredOutput: false });
    expect(definition.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
  });

  it('takes tools and disallowedTools written as YAML lists', async () => {
    await writeAgent(
      'planner',
      '---\ndescription: p\ntools:\n  - Read\n  - " Grep "\ndisallowedTools:\n  - Write\n  - Edit\n---\nPlan.\n',
    );
    const { definition } = await load({ role: 'planner' });
    expect(definition.tools).toEqual(['Read', 'Grep', 'StructuredOutput']);
    expect(definition.disallowedTools).toEqual(['Write', 'Edit']);
  });

  it('Given an agent definition file has `disallowedTools`, when parsed, then `AgentDefinition.disallowedTools` is set and those tools are denied even if listed in `tools`', async () => {
    await writeAgent(
      'planner',
      '---\ndescription: p\ntools: Read, Write, Bash\ndisallowedTools: Write, WebFetch\n---\nPlan.\n',
    );
    const { definition } = await load({ role: 'planner' });
    expect(definition.disallowedTools).toEqual(['Write', 'WebFetch']);
    expect(definition.tools).toEqual(['Read', 'Bash', 'StructuredOutput']);
    expect(definition.tools).not.toContain('Write');
  });

  it('leaves tools out (inherit everything) when the file lists none', async () => {
    await writeAgent('planner', '---\ndescription: p\ndisallowedTools: Write\n---\nPlan.\n');
    const { definition } = await load({ role: 'planner' });
    expect(definition).not.toHaveProperty('tools');
    expect(definition.disallowedTools).toEqual(['Write']);
  });

  it('adds StructuredOutput to a restricted tool list only once, and not when structured output is off', async () => {
    await writeAgent('planner', '---\ndescription: p\ntools: Read, StructuredOutput\n---\nPlan.\n');
    expect((await load({ role: 'planner' })).definition.tools).toEqual(['Read', 'StructuredOutput']);
    await writeAgent('reviewer', '---\ndescription: r\ntools: Read\n---\nReview.\n');
    expect((await load({ role: 'reviewer', structuredOutput: false })).definition.tools).toEqual(['Read']);
  });

  it('rejects a file that disallows StructuredOutput, since the run could never return its result', async () => {
    await writeAgent('planner', '---\ndescription: p\ndisallowedTools: StructuredOutput\n---\nPlan.\n');
    await expect(load({ role: 'planner' })).rejects.toThrow(/disallows StructuredOutput/);
  });

  it.each([
    ['tools: 42', /Invalid "tools" in .*: expected a comma-separated string or a list of strings, got 42/],
    [
      'tools:\n  - Read\n  - 3',
      /Invalid "tools" in .*: expected a comma-separated string or a list of strings/,
    ],
    [
      'disallowedTools: {a: 1}',
      /Invalid "disallowedTools" in .*: expected a comma-separated string or a list/,
    ],
    ['model: 4', /Invalid "model" in .*: expected a string, got 4/],
    ['description: [a]', /Invalid "description" in .*: expected a string, got \["a"\]/],
  ])('names the field and what was expected for %j', async (line, message) => {
    await writeAgent('planner', `---\n${line}\n---\nPlan.\n`);
    await expect(load({ role: 'planner' })).rejects.toThrow(message);
  });

  it("Given an agent definition file does not include `model`, when the agent definition is built, then `model` defaults to `'inherit'`", async () => {
    await writeAgent('planner', '---\ndescription: p\n---\nPlan.\n');
    expect((await load({ role: 'planner' })).definition.model).toBe('inherit');
  });

  it('uses the model override over the file model', async () => {
    await writeAgent('implementor', IMPLEMENTOR_FILE);
    expect((await load({ modelOverride: 'haiku' })).definition.model).toBe('haiku');
  });

  it('uses the whole file as the prompt when it has no front matter', async () => {
    await writeAgent('planner', 'Just a prompt.\n');
    expect((await load({ role: 'planner' })).definition).toEqual({
      description: 'planner',
      prompt: 'Just a prompt.\n',
      model: 'inherit',
    });
  });

  it('Given `startAgent` is called for any role, when the agent definition file is missing, then the promise rejects', async () => {
    await expect(load({ role: 'reviewer' })).rejects.toThrow(
      `Cannot read the reviewer agent definition ${join(repoRoot, '.claude', 'agents', 'reviewer.md')}`,
    );
  });

  describe("a mode's built-in definition, for a repository that has no file for it", () => {
    const refineFile = join('.claude', 'agents', 'refine.md');

    it('is used when the file is missing, said so, with the project context appended', async () => {
      await writeFile(join(repoRoot, 'CONTEXT.md'), 'House rules.');
      const loaded = await load({
        fileName: 'refine',
        builtIn: buildModeAgentFile('refine'),
        contextPaths: ['CONTEXT.md'],
      });
      expect(loaded.filePath).toBe(`the built-in refine definition (no ${join(repoRoot, refineFile)})`);
      expect(loaded.definition.prompt).toContain('You turn one vague work');
      expect(loaded.definition.prompt.endsWith('House rules.')).toBe(true);
      // Read-only whatever the prompt says: no writing tool is allowed.
      expect(loaded.definition.disallowedTools).toEqual(expect.arrayContaining(['Write', 'Edit']));
      expect(loaded.definition.tools).not.toContain('Write');
    });

    it("never replaces the repository's own file, not even a malformed one", async () => {
      await writeFile(join(repoRoot, refineFile), '---\nmodel: haiku\n---\nOur refiner.\n');
      const own = await load({ fileName: 'refine', builtIn: buildModeAgentFile('refine') });
      expect(own.definition.prompt).toBe('Our refiner.\n');
      await writeFile(join(repoRoot, refineFile), '---\nmodel: [unclosed\n---\nx\n');
      await expect(load({ fileName: 'refine', builtIn: buildModeAgentFile('refine') })).rejects.toThrow(
        `Malformed YAML front matter in ${join(repoRoot, refineFile)}`,
      );
    });
  });

  it('rejects, naming the file, when the definition exists but cannot be read', async () => {
    // A directory in its place fails the read for every user, root included (unlike a chmod 000 file).
    const path = join(repoRoot, '.claude', 'agents', 'planner.md');
    await mkdir(path);
    await expect(load({ role: 'planner' })).rejects.toThrow(
      `Cannot read the planner agent definition ${path}: EISDIR`,
    );
  });

  it('Given `startAgent` is called for any role, when the agent definition file contains malformed YAML, then the promise rejects', async () => {
    await writeAgent('planner', '---\ndescription: [unclosed\ntools: Read\n---\nPlan.\n');
    const error = await load({ role: 'planner' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain(
      `Malformed YAML front matter in ${join(repoRoot, '.claude', 'agents', 'planner.md')}`,
    );
    // js-yaml's own description of the problem, with its position.
    expect(message).toMatch(/line \d+, column \d+/);
  });

  it('rejects front matter that is not a mapping', async () => {
    await writeAgent('planner', '---\n- Read\n- Grep\n---\nPlan.\n');
    await expect(load({ role: 'planner' })).rejects.toThrow(
      /Malformed front matter in .*planner\.md: expected key: value pairs/,
    );
  });

  it('never evaluates JavaScript front matter', async () => {
    await writeAgent(
      'planner',
      '---js\n{ description: (globalThis.flotillaPwned = true, "x") }\n---\nPlan.\n',
    );
    await expect(load({ role: 'planner' })).rejects.toThrow(/only YAML front matter is supported/);
    expect((globalThis as { flotillaPwned?: boolean }).flotillaPwned).toBeUndefined();
  });

  describe('project context', () => {
    beforeEach(async () => {
      await writeAgent('planner', '---\ndescription: p\n---\nPlan carefully.');
      await writeFile(join(repoRoot, 'CONTEXT-A.md'), 'Conventions A.');
      await mkdir(join(repoRoot, '.claude'), { recursive: true });
      await writeFile(join(repoRoot, '.claude', 'CLAUDE.md'), 'Project rules.');
    });

    it("Given `contextPaths` contains one or more readable files, when a session is created, then the file contents are appended to the agent definition's prompt field separated by double newlines", async () => {
      const { definition } = await load({
        role: 'planner',
        contextPaths: ['.claude/CLAUDE.md', 'CONTEXT-A.md'],
      });
      expect(definition.prompt).toBe('Plan carefully.\n\nProject rules.\n\nConventions A.');
    });

    it("Given `contextPaths` is empty in the adapter config, when a session is created, then the agent's original prompt is used as-is with no context appended", async () => {
      const { definition } = await load({ role: 'planner', contextPaths: [] });
      expect(definition.prompt).toBe('Plan carefully.');
    });

    it('Given a context file in `contextPaths` cannot be read, when `startAgent` attempts to load it, then the promise rejects', async () => {
      await expect(
        load({ role: 'planner', contextPaths: ['.claude/CLAUDE.md', 'MISSING.md'] }),
      ).rejects.toThrow(`Cannot read the project context file ${join(repoRoot, 'MISSING.md')}`);
    });

    it('reads the files fresh on every call (no caching)', async () => {
      const first = await load({ role: 'planner', contextPaths: ['.claude/CLAUDE.md'] });
      await writeFile(join(repoRoot, '.claude', 'CLAUDE.md'), 'New rules.');
      await writeAgent('planner', '---\ndescription: p\n---\nPlan boldly.');
      const second = await load({ role: 'planner', contextPaths: ['.claude/CLAUDE.md'] });
      expect(first.definition.prompt).toBe('Plan carefully.\n\nProject rules.');
      expect(second.definition.prompt).toBe('Plan boldly.\n\nNew rules.');
    });
  });
});
