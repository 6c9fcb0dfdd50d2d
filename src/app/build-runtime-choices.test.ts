import { describe, expect, it } from 'vitest';
import type { CliRuntimeSettings, FlotillaConfig } from '../config/index.ts';
import type { RuntimeAdapter } from '../engine/runtime-contract/index.ts';
import { buildRuntimeChoices } from './build-runtime-choices.ts';

const adapter = (runtime: string): RuntimeAdapter => ({
  runtime,
  startAgent: () => Promise.reject(new Error('not started in this test')),
  cancelAgent: () => {},
});

function choicesFor(runtimes: FlotillaConfig['runtimes'], scriptedScenario?: string) {
  const cliBuilt: CliRuntimeSettings[] = [];
  const choices = buildRuntimeChoices(
    { runtimes, ...(scriptedScenario !== undefined && { scriptedScenario }) } as FlotillaConfig,
    {
      build: (_runtime, settings) => {
        if (typeof settings === 'string') return adapter(settings);
        cliBuilt.push(settings);
        return adapter(`cli:${settings.preset}`);
      },
    },
  );
  return { choices, cliBuilt };
}

describe('buildRuntimeChoices', () => {
  it('offers the SDK runtimes and every CLI preset by the name their runs are recorded under', () => {
    const { choices } = choicesFor({ planner: 'claude', implementor: 'claude', reviewer: 'claude' });
    expect(choices.names).toEqual([
      'claude',
      'codex',
      'cli:claude',
      'cli:codex',
      'cli:aider',
      'cli:gemini',
      'cli:opencode',
      'gemini',
    ]);
    expect(choices.get('codex')?.runtime).toBe('codex');
    expect(choices.get('gemini')?.runtime).toBe('gemini');
    expect(choices.get('cli:aider')?.runtime).toBe('cli:aider');
    expect(choices.get('scripted')).toBeNull();
    expect(choices.get('cli:custom')).toBeNull();
    expect(choices.get('gpt-9')).toBeNull();
  });

  it('builds a CLI runtime once, with the settings of a role configured with that preset', () => {
    const aider: CliRuntimeSettings = {
      runtime: 'cli',
      preset: 'aider',
      program: ['/opt/aider/bin/aider'],
      protectedPaths: ['secrets/'],
    };
    const custom: CliRuntimeSettings = { runtime: 'cli', preset: 'custom', custom: {}, protectedPaths: [] };
    const { choices, cliBuilt } = choicesFor(
      { planner: 'scripted', implementor: aider, reviewer: custom },
      'scenario.json',
    );
    expect(choices.names).toContain('scripted');
    expect(choices.names).toContain('cli:custom');
    const first = choices.get('cli:aider');
    expect(choices.get('cli:aider')).toBe(first);
    choices.get('cli:gemini');
    expect(cliBuilt).toEqual([aider, { runtime: 'cli', preset: 'gemini', protectedPaths: [] }]);
  });

  it('offers the named runtimes of the config under their names', () => {
    const aider: CliRuntimeSettings = {
      runtime: 'cli',
      preset: 'aider',
      program: ['/opt/aider/bin/aider'],
      protectedPaths: [],
    };
    const cliBuilt: CliRuntimeSettings[] = [];
    const choices = buildRuntimeChoices(
      {
        runtimes: { planner: 'claude', implementor: 'claude', reviewer: 'claude' },
        namedRuntimes: { 'aider-local': aider, fast: 'codex' },
      } as unknown as FlotillaConfig,
      {
        build: (_runtime, settings) => {
          if (typeof settings === 'string') return adapter(settings);
          cliBuilt.push(settings);
          return adapter(`cli:${settings.preset}`);
        },
      },
    );
    expect(choices.names.slice(-2)).toEqual(['aider-local', 'fast']);
    expect(choices.get('aider-local')?.runtime).toBe('cli:aider');
    expect(cliBuilt).toEqual([aider]);
    expect(choices.get('fast')?.runtime).toBe('codex');
  });
});
