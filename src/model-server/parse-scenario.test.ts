import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from './load-scenario-file.ts';
import { parseScenario, ScenarioError } from './parse-scenario.ts';

const SCENARIO_DIR = join(import.meta.dirname, 'scenarios');

function issuesOf(input: unknown): string[] {
  try {
    parseScenario(input, 'test.json');
  } catch (error) {
    if (error instanceof ScenarioError) return error.issues;
    throw error;
  }
  return [];
}

describe('parseScenario', () => {
  it('accepts every example scenario', async () => {
    const files = (await readdir(SCENARIO_DIR)).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const scenario = await loadScenarioFile(join(SCENARIO_DIR, file));
      expect(scenario.routes.length).toBeGreaterThan(0);
    }
  });

  it('keeps the callbacks of a scenario built in code', () => {
    const respond = () => ({ text: 'dynamic' });
    const check = () => undefined;
    const scenario = parseScenario({ routes: [{ name: 'main', steps: [{ respond, check }] }] });
    expect(scenario.routes[0]?.steps[0]?.respond).toBe(respond);
    expect(scenario.routes[0]?.steps[0]?.check).toBe(check);
  });

  it('names the source and the path of each bad field', () => {
    let error: unknown;
    try {
      parseScenario(
        {
          routes: [
            { name: 'main', steps: [{ text: 'ok' }, { text: 'x', expcet: {} }, { delayMs: -1, text: 'y' }] },
          ],
        },
        'scenarios/broken.json',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    const message = (error as ScenarioError).message;
    expect(message).toContain('invalid model-server scenario scenarios/broken.json:');
    expect(message).toMatch(/routes\[0\]\.steps\[1\]: Unrecognized key: "expcet"/);
    expect(message).toMatch(/routes\[0\]\.steps\[2\]\.delayMs: /);
  });

  it.each([
    [{}, /^routes: /],
    [{ routes: [] }, /^routes: .*>=1/],
    [
      { routes: [{ steps: [{ text: 'a' }] }] },
      /^routes\[0\]\.name: required: a non-empty, unique route name/,
    ],
    [{ routes: [{ name: 'main', steps: [{}] }] }, /^routes\[0\]\.steps\[0\]: a step needs a reply/],
    [
      { routes: [{ name: 'main', steps: [{ error: { status: 500, times: 1 } }] }] },
      /^routes\[0\]\.steps\[0\]\.error\.times: error\.times needs a reply/,
    ],
    [
      { routes: [{ name: 'main', steps: [{ error: { status: 500 }, text: 'never' }] }] },
      /^routes\[0\]\.steps\[0\]\.error: an error without times is served forever/,
    ],
    [
      { routes: [{ name: 'main', steps: [{ error: { status: 200 } }] }] },
      /^routes\[0\]\.steps\[0\]\.error\.status: /,
    ],
    [
      {
        routes: [
          { name: 'a', steps: [] },
          { name: 'a', steps: [] },
        ],
      },
      /^routes\[1\]\.name: duplicate route name 'a'/,
    ],
    [
      { routes: [{ name: 'a', match: { systemIncludes: { regex: '(' } }, steps: [] }] },
      /^routes\[0\]\.match\.systemIncludes.*regex: is not a valid regular expression/,
    ],
    [
      { routes: [{ name: 'a', steps: [{ content: [{ type: 'tool_use', name: 'Bash' }] }] }] },
      /^routes\[0\]\.steps\[0\]\.content\[0\]\.input: /,
    ],
    [
      { routes: [{ name: 'a', steps: [{ content: [{ type: 'image' }] }] }] },
      /^routes\[0\]\.steps\[0\]\.content\[0\]\.type: /,
    ],
    [
      { routes: [{ name: 'a', steps: [{ text: 'x', check: 'not a function' }] }] },
      /Unrecognized key: "check"/,
    ],
  ])('rejects %j', (input, pattern) => {
    const issues = issuesOf(input);
    expect(
      issues.some((issue) => pattern.test(issue)),
      issues.join('\n'),
    ).toBe(true);
  });
});

describe('loadScenarioFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'model-server-scenarios-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a file that is not JSON', async () => {
    const file = join(dir, 'not-json.json');
    await writeFile(file, '{ "routes": [ ');
    await expect(loadScenarioFile(file)).rejects.toThrow(
      new RegExp(`invalid model-server scenario ${file}:\\n {2}- not valid JSON: `),
    );
  });

  it('reports a missing file', async () => {
    await expect(loadScenarioFile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read the file: ENOENT/);
  });

  it('reports a schema error with the file name', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ routes: [{ name: 'main', steps: [{ text: 1 }] }] }));
    await expect(loadScenarioFile(file)).rejects.toThrow(`${file}:\n  - routes[0].steps[0].text: `);
  });
});
