/**
 * A failure every retry would repeat — here a scenario with no route for the implementor — blocks the item at
 * its first attempt, with no back-off retries, and the cause is what `run` and `work show` say.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initScriptedRepository, type ScriptedRepository } from '../support/init-scripted-repository.ts';

let repo: ScriptedRepository | undefined;
afterEach(async () => {
  await repo?.remove();
  repo = undefined;
});

/** The sample scenario with the implementor's route matching nothing the implementor is sent. */
async function breakImplementorRoute(root: string): Promise<void> {
  const path = join(root, 'flotilla.scenario.json');
  const scenario = JSON.parse(await readFile(path, 'utf8')) as {
    routes: { name: string; match: { systemIncludes?: string } }[];
  };
  for (const route of scenario.routes) {
    if (route.name === 'implementor') route.match.systemIncludes = 'a sentence no prompt has';
  }
  await writeFile(path, JSON.stringify(scenario, null, 2));
}

describe('a failure a retry cannot change', () => {
  it('blocks the item at once, without back-off retries, naming the cause in the run and on the item', async () => {
    repo = await initScriptedRepository(breakImplementorRoute);
    const run = await repo.flotilla(['run', '--until-idle']);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(/retry of implementor/);
    expect(run.stdout).toMatch(/work item #1 in-progress → blocked/);
    const last = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(
      /^idle — waiting on a human: #1 ".*" blocked: scenario: no route matches this request/,
    );

    const runs = JSON.parse((await repo.flotilla(['runs', '--json'])).stdout) as { role: string }[];
    expect(runs.filter((entry) => entry.role === 'implementor')).toHaveLength(1);

    const shown = (await repo.flotilla(['work', 'show', '1'])).stdout;
    expect(shown).toContain('every retry would repeat');
    expect(shown).toContain('no route matches this request');
  }, 180_000);
});
