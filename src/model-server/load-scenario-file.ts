import { readFile } from 'node:fs/promises';
import { parseScenario, ScenarioError } from './parse-scenario.ts';
import type { Scenario } from './scenario-types.ts';

/** Reads and validates a JSON scenario file; errors name the file and the offending field. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, [`cannot read the file: ${(error as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(path, [`not valid JSON: ${(error as Error).message}`]);
  }
  return parseScenario(json, path);
}
