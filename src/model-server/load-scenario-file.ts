import { readFile } from 'node:fs/promises';
import { messageOf } from '../shared/message-of.ts';
import { parseScenario, ScenarioError } from './parse-scenario.ts';
import type { Scenario } from './scenario-types.ts';

/** Reads and validates a JSON scenario file; errors name the file and the offending field. */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, [`cannot read the file: ${messageOf(error)}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(path, [`not valid JSON: ${messageOf(error)}`]);
  }
  return parseScenario(json, path);
}
